import Testing

@testable import StoicStore
@testable import StoicTesting

/// The property every open keeps, on journal directories damaged at random: open, append a
/// record durably, close (or lose power), reopen must return every record the first open
/// returned plus the appended one, or the first open must have refused with a typed
/// ``StoreError/Code/corrupt``. With and without salvage.
///
/// `STOIC_FUZZ_BUDGET` sets how many directories are built (a few dozen by default, so the
/// ordinary run stays fast) and `STOIC_FUZZ_SEED` the seed; case `n` is rebuilt by the same
/// seed and number alone.
@Suite("Journal: damaged directories, open agrees with reopen")
struct JournalDamagedDirectoryTests {
  typealias Support = JournalTestSupport

  /// What the damaged directories led to, over a run.
  struct Tally: CustomStringConvertible {
    var directories = 0
    var refused = [false: 0, true: 0]
    var kept = [false: 0, true: 0]
    var damages: [String: Int] = [:]

    var description: String {
      "\(directories) directories: without salvage \(kept[false] ?? 0) kept, "
        + "\(refused[false] ?? 0) refused; with salvage \(kept[true] ?? 0) kept, "
        + "\(refused[true] ?? 0) refused; damage \(damages.sorted { $0.key < $1.key })"
    }
  }

  @Test("whatever open accepts, the next open accepts too, on directories damaged at random")
  func openAgreesWithReopen() throws {
    let budget = FuzzBudget.fromEnvironment(default: 48)
    var tally = Tally()
    for index in 0..<budget.cases {
      var random = budget.generator(forCase: index)
      let built = try Self.build(&random)
      let damages = try Self.damage(built.disk, &random)
      tally.directories += 1
      for damage in damages { tally.damages[damage.kind, default: 0] += 1 }
      for salvage in [false, true] {
        var options = built.options
        options.salvage = salvage
        let context = "case \(index) (seed \(budget.seed), salvage \(salvage)): \(damages)"
        do {
          let outcome = try DamagedJournal.openAppendReopen(built.disk.copy(), options: options)
          if let refusal = outcome.refusal {
            #expect(refusal.code == .corrupt, "\(context): refused with \(refusal)")
            tally.refused[salvage, default: 0] += 1
          } else {
            tally.kept[salvage, default: 0] += 1
          }
        } catch {
          Issue.record("\(context): \(error)")
        }
      }
    }
    if FuzzBudget.isSetInEnvironment { print("damaged journal directories: \(tally)") }
    // The directories reach both outcomes, with and without salvage.
    #expect((tally.kept[false] ?? 0) > 0 && (tally.refused[false] ?? 0) > 0, "\(tally)")
    #expect((tally.kept[true] ?? 0) > (tally.kept[false] ?? 0), "\(tally)")
  }

  /// A healthy journal on a settled disk, and the options it was written with.
  static func build(_ random: inout SplitMix64) throws -> (
    disk: SimulatedFileSystem, options: JournalOptions
  ) {
    var options = Support.smallSegments(compress: random.below(3) != 0)
    options.mappedAppends = random.below(2) == 0
    options.segmentSize = [80, 120, 300][random.below(3)]
    let disk = SimulatedFileSystem()
    let journal = try Journal.open(
      directory: Support.directory, fileSystem: disk, options: options)
    let records = UInt64(random.below(24))
    var sequence: UInt64 = 0
    while sequence < records {
      sequence = try journal.append(Support.payload(sequence + 1))
      switch random.below(12) {
      case 0: try journal.writeSnapshot(covering: sequence, bytes: Support.state(through: sequence))
      case 1: try journal.dropThrough(sequence - UInt64(random.below(Int(sequence))))
      default: break
      }
    }
    if random.below(3) == 0 {
      // Left without a close: the durable state after a sync, seals perhaps still pending.
      try journal.sync()
      let crashed = disk.crashedDurableOnly()
      try journal.close()
      return (crashed, options)
    }
    try journal.close()
    disk.settle()
    return (disk, options)
  }

  /// One change made to a directory.
  struct Damage: CustomStringConvertible {
    var kind: String
    var detail: String
    var description: String { "\(kind) \(detail)" }
  }

  /// Damages the journal on `disk` one to three times, each a change its files could suffer:
  /// segments removed, duplicated, renamed, emptied, truncated, flipped, overlapping; empty and
  /// corrupt `.zst` files; a changed low-water mark.
  static func damage(_ disk: SimulatedFileSystem, _ random: inout SplitMix64) throws -> [Damage] {
    var damages: [Damage] = []
    for _ in 0...random.below(3) {
      let names = DamagedJournal.segmentNames(on: disk)
      let firsts = names.compactMap { JournalFileNames.parseSegment($0)?.first }
      let top = (firsts.max() ?? 1) + 6
      func someFirst() -> UInt64 {
        random.below(8) == 0 ? 4_000_000_000_000_000 : 1 + UInt64(random.below(Int(top)))
      }
      let name = names.isEmpty ? nil : names[random.below(names.count)]
      let path = name.map(DamagedJournal.path)
      let bytes = path.flatMap(disk.contents) ?? []
      let kind = random.below(name == nil ? 3 : 11)
      switch kind {
      case 0:
        let first = someFirst()
        disk.setDurableContents(
          DamagedJournal.segment(first, .compressed),
          try DamagedJournal.compressedSegment(first: first, []))
        damages.append(Damage(kind: "empty .zst", detail: "at \(first)"))
      case 1:
        let first = someFirst()
        let garbage = SplitMix64.bytes(count: 8 + random.below(80), seed: random.next())
        disk.setDurableContents(DamagedJournal.segment(first, .compressed), garbage)
        damages.append(Damage(kind: "garbage .zst", detail: "at \(first)"))
      case 2:
        // A .log overlapping what is there: a run of records under a lower name.
        let start = 1 + UInt64(random.below(Int(top)))
        let first = start - min(start - 1, UInt64(random.below(3)))
        let run = Array(start...(start + UInt64(random.below(4))))
        disk.setDurableContents(
          DamagedJournal.segment(first, .log), DamagedJournal.logSegment(run))
        damages.append(Damage(kind: "overlapping .log", detail: "\(run) at \(first)"))
      case 3:
        try disk.remove(path ?? "")
        try disk.syncDirectory(Support.directory)
        damages.append(Damage(kind: "removed", detail: name ?? ""))
      case 4, 5:
        let first = random.below(2) == 0 ? someFirst() : (firsts.randomElement(using: &random) ?? 1)
        let target = DamagedJournal.segment(
          first, random.below(2) == 0 ? .log : .compressed)
        if kind == 4 {
          disk.setDurableContents(target, bytes)
        } else {
          try disk.rename(path ?? "", to: target)
          try disk.syncDirectory(Support.directory)
        }
        damages.append(
          Damage(kind: kind == 4 ? "duplicated" : "renamed", detail: "\(name ?? "") to \(target)"))
      case 6:
        disk.setDurableContents(path ?? "", [])
        damages.append(Damage(kind: "emptied", detail: name ?? ""))
      case 7, 8:
        // Cut anywhere, or by exactly a marker or a small record (a frame boundary).
        let cut =
          kind == 7
          ? random.below(max(bytes.count, 1))
          : max(0, bytes.count - [JournalFrame.markerSize, 19, 24][random.below(3)])
        disk.setDurableContents(path ?? "", Array(bytes.prefix(cut)))
        damages.append(Damage(kind: "truncated", detail: "\(name ?? "") to \(cut)"))
      case 9:
        guard !bytes.isEmpty else { continue }
        let offset = random.below(bytes.count)
        disk.damage(path ?? "", at: offset, with: [bytes[offset] ^ 0x20])
        damages.append(Damage(kind: "flipped", detail: "\(name ?? "") at \(offset)"))
      default:
        let checkpoint = DamagedJournal.path(JournalFileNames.checkpoint)
        if random.below(2) == 0 {
          if disk.contents(checkpoint) != nil {
            try disk.remove(checkpoint)
            try disk.syncDirectory(Support.directory)
          }
          damages.append(Damage(kind: "checkpoint removed", detail: ""))
        } else {
          let lowWater = UInt64(random.below(Int(top)))
          disk.setDurableContents(checkpoint, DamagedJournal.checkpoint(lowWater: lowWater))
          damages.append(Damage(kind: "low-water mark set", detail: "to \(lowWater)"))
        }
      }
    }
    return damages
  }
}
