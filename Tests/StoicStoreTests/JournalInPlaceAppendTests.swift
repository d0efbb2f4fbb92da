import StoicStore
import StoicTesting
import Testing

@Suite("Journal: appends encoded in place and from any byte collection")
struct JournalInPlaceAppendTests {
  @Test(
    "records encoded in place read back as written, mapped and positional",
    arguments: [true, false])
  func inPlaceRoundTrip(mapped: Bool) throws {
    let disk = SimulatedFileSystem()
    let options = JournalOptions(syncPolicy: .never, segmentSize: 512, mappedAppends: mapped)
    let journal = try Journal.open(directory: "/j", fileSystem: disk, options: options)
    var expected: [[UInt8]] = []
    for index in 0..<40 {
      let text = "record \(index) " + String(repeating: "x", count: index % 7)
      let sequence = try journal.append(count: text.utf8.count) { payload in
        payload.copyBytes(from: text.utf8)
      }
      #expect(sequence == UInt64(expected.count + 1))
      expected.append(Array(text.utf8))
      try journal.append(contentsOf: text.utf8.dropFirst(2))
      expected.append(Array(text.utf8.dropFirst(2)))
    }
    try journal.close()
    let reopened = try Journal.open(directory: "/j", fileSystem: disk, options: options)
    #expect(try reopened.records().map(\.payload) == expected)
  }

  @Test("an empty record and a durable one")
  func emptyAndDurable() throws {
    let disk = SimulatedFileSystem()
    let journal = try Journal.open(
      directory: "/j", fileSystem: disk, options: JournalOptions(syncPolicy: .never))
    try journal.append(count: 0) { #expect($0.isEmpty) }
    let durable = try journal.append(contentsOf: [1, 2, 3] as [UInt8], durable: true)
    #expect(journal.durableSequence == durable)
    let recovered = try Journal.open(directory: "/j", fileSystem: disk.crashedDurableOnly())
    #expect(try recovered.records().map(\.payload) == [[], [1, 2, 3]])
  }

  @Test("a size over the limit or below zero is refused before anything is written")
  func refusedSizes() throws {
    let disk = SimulatedFileSystem()
    var options = JournalOptions(syncPolicy: .never)
    options.maxRecordSize = 16
    let journal = try Journal.open(directory: "/j", fileSystem: disk, options: options)
    for count in [17, -1] {
      #expect(throws: StoreError.self) {
        try journal.append(count: count) { _ in Issue.record("encode ran for \(count)") }
      }
    }
    #expect(journal.lastSequence == 0)
  }
}
