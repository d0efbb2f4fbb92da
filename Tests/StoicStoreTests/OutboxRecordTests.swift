import Testing

@testable import StoicStore

@Suite struct OutboxRecordTests {
  static func describe(_ record: OutboxRecord) -> String {
    switch record {
    case .enqueue(let entry):
      "enqueue \(entry.key) \(entry.item) \(entry.createdAt) \(entry.state) "
        + "\(entry.lastError ?? "-") \(entry.attempts) \(entry.ownedFiles) "
        + "\(entry.filesToUpload) \(entry.batchKey ?? "-") \(entry.unknownFields.map(\.value))"
    default: "\(record)"
    }
  }

  static var all: [OutboxRecord] {
    var full = StoredEntry(key: "K-ü", item: [0, 1, 2, 255])
    full.createdAt = -5
    full.state = .needsAttention
    full.lastError = "HTTP 422"
    full.attempts = 3
    full.ownedFiles = ["/a", "/b"]
    full.filesToUpload = ["/b"]
    full.batchKey = "batch-1"
    full.unknownFields = [(200, [7])]
    return [
      .enqueue(StoredEntry(key: "K", item: [])), .enqueue(full), .acknowledge(key: "K"),
      .acknowledgeBatch(batchKey: "batch-1"), .park(.entry("K"), error: "HTTP 400"),
      .park(.batch("batch-1"), error: ""), .requeue(key: "K"),
      .formBatch(batchKey: "batch-1", keys: ["A", "B"]), .attempt(.entry("K")),
      .attempt(.batch("batch-1")), .discard(key: "K"), .uploaded(key: "K", file: "/b"),
    ]
  }

  @Test func everyRecordTypeRoundTrips() throws {
    for record in Self.all {
      let decoded = try OutboxRecord.decode(record.encoded()).get()
      #expect(Self.describe(decoded) == Self.describe(record))
    }
  }

  @Test func theSeedsLayoutsAreWrittenAndReadAsSpecified() throws {
    #expect(OutboxRecord.acknowledge(key: "ab").encoded() == [0x02, 2, 0, 0x61, 0x62])
    let seedEnqueue = try OutboxRecord.decode([0x01, 2, 0, 0x61, 0x62, 9, 8]).get()
    #expect(
      Self.describe(seedEnqueue) == Self.describe(.enqueue(StoredEntry(key: "ab", item: [9, 8]))))
  }

  @Test func everyTruncationOfARecordIsUnreadableNeverATrap() {
    for record in Self.all {
      let bytes = record.encoded()
      for length in 0..<bytes.count {
        let prefix = Array(bytes[..<length])
        if case .success(let decoded) = OutboxRecord.decode(prefix) {
          // Only a seed enqueue, whose item runs to the end, can be cut and still parse.
          guard case .enqueue = decoded, prefix.first == 0x01 else {
            Issue.record("a \(length)-byte prefix of \(record) parsed as \(decoded)")
            continue
          }
        }
      }
    }
  }
}
