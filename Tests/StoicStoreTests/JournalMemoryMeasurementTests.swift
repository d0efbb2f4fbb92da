import Foundation
import StoicStore
import Testing

/// Measures the peak resident memory of a process that opens a large journal and reads every
/// record, for two journal sizes; the peak must not grow with the journal. This is a
/// measurement, not a timed test, and it writes hundreds of megabytes, so it runs only when
/// `STOIC_JOURNAL_MEMORY_MB` is set (the size of the larger journal, in MiB).
@Suite("Journal memory at open (measurement)")
struct JournalMemoryMeasurementTests {
  static let sizeVariable = "STOIC_JOURNAL_MEMORY_MB"
  static let childVariable = "STOIC_JOURNAL_MEMORY_CHILD"

  static var largeMiB: Int? {
    ProcessInfo.processInfo.environment[sizeVariable].flatMap { Int($0) }
  }

  @Test(
    "peak memory of open + full replay is flat in the journal's size",
    .enabled(if: largeMiB != nil || ProcessInfo.processInfo.environment[childVariable] != nil))
  func peakMemoryIsFlat() throws {
    if let directory = ProcessInfo.processInfo.environment[Self.childVariable] {
      Self.runChild(directory)
    }
    let large = Self.largeMiB ?? 256
    try PosixScratchDirectory.with { scratch in
      let smallPeak = try Self.measure(scratch + "/small", mebibytes: max(large / 16, 4))
      let largePeak = try Self.measure(scratch + "/large", mebibytes: large)
      print(
        "journal memory: open + replay of \(max(large / 16, 4)) MiB peaked at \(smallPeak) KiB, "
          + "of \(large) MiB at \(largePeak) KiB")
      #expect(largePeak < smallPeak + 8 * 1024, "peak grew from \(smallPeak) to \(largePeak) KiB")
    }
  }

  /// Writes a journal of about `mebibytes` MiB, then opens and replays it in a fresh child
  /// process and returns that process's peak resident set (VmHWM, KiB).
  static func measure(_ directory: String, mebibytes: Int) throws -> Int {
    let journal = try Journal.open(
      directory: directory, fileSystem: PosixFileSystem(),
      options: JournalOptions(syncPolicy: .never))
    var random: UInt64 = 0x5EED
    let record = 1000
    for _ in 0..<(mebibytes * 1024 * 1024 / (record + 16)) {
      let payload = (0..<record).map { _ in
        random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return UInt8(truncatingIfNeeded: random >> 33)
      }
      try journal.append(payload)
    }
    try journal.close()
    let child = try TestBinaryChild.process(
      filter: "JournalMemoryMeasurementTests",
      environment: [childVariable: directory, sizeVariable: nil])
    try child.run()
    child.waitUntilExit()
    #expect(child.terminationStatus == 0)
    let text = try String(contentsOfFile: directory + "/peak", encoding: .utf8)
    return Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
  }

  /// The child's part: open, replay every record, write VmHWM to `<directory>/peak`, exit.
  static func runChild(_ directory: String) -> Never {
    guard
      let journal = try? Journal.open(
        directory: directory, fileSystem: PosixFileSystem(),
        options: JournalOptions(syncPolicy: .never))
    else { exit(3) }
    var count = 0
    var checksum: UInt32 = 0
    let replayed: Void? = try? journal.forEachRecord { (record) throws(StoreError) in
      count += 1
      checksum = CRC32C.checksum(record.payload, continuing: checksum)
    }
    guard replayed != nil, count > 0 else { exit(4) }
    try? journal.close()
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
    let kibibytes = line.split(separator: " ").compactMap { Int($0) }.first ?? -1
    guard
      (try? "\(kibibytes)\n".write(toFile: directory + "/peak", atomically: false, encoding: .utf8))
        != nil
    else { exit(5) }
    exit(0)
  }
}
