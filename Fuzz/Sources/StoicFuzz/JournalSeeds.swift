import StoicTesting

@testable import StoicStore

/// Journal directories the library writes, and damaged copies of them.
enum JournalSeeds {
  /// A directory and the flags (salvage, mapped, compress) to open it with.
  struct Seed {
    var flags: UInt8
    var files: [JournalImage.File]
  }

  /// Six journals: closed cleanly; rolled and compressed with a snapshot; left by a crash with
  /// its last appends torn; and copies of the second with a byte flipped in a `.log`, in a
  /// `.zst`, and its active segment cut in the middle of a frame.
  static func directories() -> [Seed] {
    var seeds: [Seed] = []
    if let small = write(records: 5, compress: false, snapshotAt: nil) {
      seeds.append(Seed(flags: 2, files: JournalImage.files(on: small)))
    }
    guard let rolled = write(records: 60, compress: true, snapshotAt: 20) else { return seeds }
    let files = JournalImage.files(on: rolled)
    seeds.append(Seed(flags: 6, files: files))
    if let crashed = crashedWhileAppending() {
      seeds.append(Seed(flags: 3, files: JournalImage.files(on: crashed)))
    }
    for (suffix, flags) in [(".log", UInt8(1)), (".zst", UInt8(5))] {
      guard let index = files.firstIndex(where: { $0.name.hasSuffix(suffix) }) else { continue }
      var damaged = files
      let middle = damaged[index].bytes.count / 2
      damaged[index].bytes[middle] ^= 0x40
      seeds.append(Seed(flags: flags, files: damaged))
    }
    if let index = files.lastIndex(where: { $0.name.hasSuffix(".log") }) {
      var torn = files
      torn[index].bytes.removeLast(min(torn[index].bytes.count, 11))
      seeds.append(Seed(flags: 0, files: torn))
    }
    return seeds
  }

  /// A journal of `records` small records, closed; `snapshotAt` takes a snapshot there.
  static func write(records: Int, compress: Bool, snapshotAt: UInt64?) -> SimulatedFileSystem? {
    let disk = SimulatedFileSystem()
    do throws(StoreError) {
      let journal = try Journal.open(
        directory: JournalReopenCheck.directory, fileSystem: disk,
        options: JournalReopenCheck.options(flags: compress ? 6 : 2))
      for index in 0..<records {
        let sequence = try journal.append(payload(index))
        if sequence == snapshotAt { try journal.writeSnapshot(covering: sequence, bytes: [7, 7]) }
      }
      try journal.close()
      return disk
    } catch {
      return nil
    }
  }

  /// A journal whose last appends were never synced, after a crash that kept part of them.
  static func crashedWhileAppending() -> SimulatedFileSystem? {
    let disk = SimulatedFileSystem()
    var options = JournalReopenCheck.options(flags: 2)
    options.syncPolicy = .never
    do throws(StoreError) {
      let journal = try Journal.open(
        directory: JournalReopenCheck.directory, fileSystem: disk, options: options)
      for index in 0..<8 { try journal.append(payload(index)) }
      try journal.sync()
      for index in 8..<12 { try journal.append(payload(index)) }
      // The process dies here: no close. A crash keeps some of the pending writes, torn.
      return disk.crashImages(limit: 16).last?.makeFileSystem()
    } catch {
      return nil
    }
  }

  /// A small record that looks like a log line.
  static func payload(_ index: Int) -> [UInt8] {
    Array("{\"level\":\"info\",\"n\":\(index),\"msg\":\"request served\"}".utf8)
  }
}
