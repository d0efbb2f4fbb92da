import Foundation
import StoicStore
import StoicTesting
import Testing

/// `stoic verify` agrees with the library: on journals damaged at random (seeded) it exits 1
/// exactly when the library's own open or reads refuse the journal, and 0 exactly when they
/// accept it; and it changes no byte.
@Suite("stoic verify agrees with the library")
struct VerifyAgreementTests {
  /// A number in `0 ..< bound`.
  static func below(_ random: inout SplitMix64, _ bound: Int) -> Int {
    Int(random.next() % UInt64(max(bound, 1)))
  }

  /// How many damaged journals to try (`STOIC_CLI_MUTATIONS`, default 24).
  static var mutations: Int {
    ProcessInfo.processInfo.environment["STOIC_CLI_MUTATIONS"].flatMap(Int.init) ?? 24
  }

  /// What the library does with the journal in `directory`: `nil` when it opens and reads
  /// every record and the snapshot, else the error it refused with.
  static func libraryRefusal(_ directory: String) throws -> StoreError? {
    do throws(StoreError) {
      let journal = try StoreFixtures.openJournal(
        directory, options: JournalOptions(backgroundMaintenance: false))
      defer { try? journal.close() }
      _ = try journal.snapshot()
      try journal.forEachRecordBorrowing { (_, _) throws(StoreError) in }
      return nil
    } catch {
      guard error.code == .corrupt || error.code == .unsupported else { throw error }
      return error
    }
  }

  /// Damages one file of `directory` at random: a flipped bit, a run of zeros, or a cut; or
  /// (one time in five) leaves bytes of a half-written frame after the active segment's end,
  /// as a crash in the middle of an append does.
  static func damage(_ directory: String, _ random: inout SplitMix64) throws -> String {
    if Self.below(&random, 5) == 0 {
      let active = try StoreFixtures.activeSegment(directory)
      let extra = (0..<(1 + Self.below(&random, 40))).map { _ in
        UInt8(truncatingIfNeeded: random.next())
      }
      try StoreFixtures.append(active, extra)
      return "\(StorePath.name(of: active)): \(extra.count) bytes appended"
    }
    let files = try FileManager.default.contentsOfDirectory(atPath: directory)
      .filter { $0 != "journal.lock" }.sorted()
    let name = files[Self.below(&random, files.count)]
    let path = directory + "/" + name
    let size = try StoreFixtures.bytesOf(path).count
    guard size > 0 else { return "\(name): empty, left alone" }
    let offset = Self.below(&random, size)
    switch Self.below(&random, 4) {
    case 0, 1:
      let bit = UInt8(Self.below(&random, 8))
      try StoreFixtures.flipBit(path, at: offset, bit: bit)
      return "\(name): bit \(bit) of byte \(offset) flipped"
    case 2:
      let count = 1 + Self.below(&random, 64)
      try StoreFixtures.zero(path, at: offset, count: count)
      return "\(name): \(count) bytes zeroed at \(offset)"
    default:
      let bytes = try StoreFixtures.bytesOf(path)
      try Data(bytes.prefix(offset)).write(to: URL(fileURLWithPath: path))
      return "\(name): cut at \(offset) of \(size)"
    }
  }

  @Test("seeded random damage: verify exits 1 exactly when the library refuses")
  func agreement() throws {
    try StoicProcess.withScratch { scratch in
      let base = scratch + "/base"
      try StoreFixtures.journal(base, records: 200, compress: false)
      try StoreFixtures.compressSome(base)
      let journal = try StoreFixtures.openJournal(base)
      try journal.writeSnapshot(covering: 40, bytes: Array("snapshot through 40".utf8))
      try journal.close()
      var random = SplitMix64(seed: 0x5701C)
      var refused = 0
      for round in 0..<Self.mutations {
        let checked = scratch + "/checked-\(round)"
        let library = scratch + "/library-\(round)"
        try StoreFixtures.copyDirectory(base, to: checked)
        let what = try Self.damage(checked, &random)
        try StoreFixtures.copyDirectory(checked, to: library)
        let refusal = try Self.libraryRefusal(library)
        let outcome = try VerifyCommandTests.verify(checked, root: checked)
        #expect(
          outcome.status == (refusal == nil ? 0 : 1),
          "\(what): the library \(refusal.map { "refused: \($0)" } ?? "accepted"); \(outcome)")
        if let refusal {
          refused += 1
          let file = (refusal.cause as? JournalDamage)?.path ?? refusal.path
          if let file {
            #expect(outcome.output.contains(StorePath.name(of: file)), "\(what): \(outcome)")
          }
        }
      }
      // The damage must not all land where it is harmless: the test would show nothing.
      #expect(refused >= Self.mutations / 4, "only \(refused) of \(Self.mutations) refused")
      #expect(refused < Self.mutations, "every damage refused: no accepted case was checked")
    }
  }
}
