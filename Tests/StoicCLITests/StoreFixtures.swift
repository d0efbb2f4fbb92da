import Foundation
import StoicStore

/// Stores made by the library on the real disk, for the tool to look at, and the ways a disk
/// damages them.
enum StoreFixtures {
  /// Why a fixture could not be made.
  struct SetupError: Error, CustomStringConvertible {
    let description: String
  }

  /// Small segments so a few hundred records fill several; no background work, so the files
  /// are settled when the journal is closed.
  static func journalOptions(compress: Bool = true) -> JournalOptions {
    JournalOptions(
      syncPolicy: .never, segmentSize: 4096, compressSealedSegments: compress,
      backgroundMaintenance: false)
  }

  /// The payload of record `sequence`.
  static func payload(_ sequence: Int) -> [UInt8] {
    Array("record \(sequence): the quick brown fox jumps over the lazy dog".utf8)
  }

  /// A closed journal of `records` records in `directory`: with `compress`, its sealed
  /// segments are compressed (`.zst`); without, they stay sealed `.log` segments.
  static func journal(_ directory: String, records: Int = 300, compress: Bool = true) throws {
    let journal = try StoreFixtures.openJournal(
      directory, options: journalOptions(compress: compress))
    for index in 1...records { _ = try journal.append(payload(index)) }
    try journal.close()
  }

  /// The journal's segment files, sorted by name (so by first sequence).
  static func segments(_ directory: String, suffix: String) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: directory)
      .filter { $0.hasPrefix("journal-") && $0.hasSuffix(suffix) }.sorted()
      .map { directory + "/" + $0 }
  }

  /// The active (last) `.log` segment.
  static func activeSegment(_ directory: String) throws -> String {
    guard let last = try segments(directory, suffix: ".log").last else {
      throw SetupError(description: "no .log segment in \(directory)")
    }
    return last
  }

  /// Flips bit `bit` of the byte at `offset` of `path`.
  static func flipBit(_ path: String, at offset: Int, bit: UInt8 = 0) throws {
    var bytes = try bytesOf(path)
    guard bytes.indices.contains(offset) else {
      throw SetupError(description: "\(path) has no byte at \(offset)")
    }
    bytes[offset] ^= 1 << bit
    try Data(bytes).write(to: URL(fileURLWithPath: path))
  }

  /// Overwrites `count` bytes at `offset` of `path` with zeros.
  static func zero(_ path: String, at offset: Int, count: Int) throws {
    var bytes = try bytesOf(path)
    for index in offset..<min(offset + count, bytes.count) { bytes[index] = 0 }
    try Data(bytes).write(to: URL(fileURLWithPath: path))
  }

  /// Appends `extra` to `path`.
  static func append(_ path: String, _ extra: [UInt8]) throws {
    try Data(try bytesOf(path) + extra).write(to: URL(fileURLWithPath: path))
  }

  /// The bytes of `path`.
  static func bytesOf(_ path: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
  }

  /// Every file under `directory` (names, sizes, bytes and modification times), as one
  /// comparable value: equal before and after only if nothing was written, created, removed
  /// or touched.
  static func fingerprint(_ directory: String) throws -> [String: String] {
    var result: [String: String] = [:]
    let manager = FileManager.default
    guard let walker = manager.enumerator(atPath: directory) else {
      throw SetupError(description: "cannot list \(directory)")
    }
    for case let name as String in walker {
      let path = directory + "/" + name
      var info = stat()
      guard stat(path, &info) == 0 else { continue }
      let modified = "\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
      if info.st_mode & S_IFMT == S_IFDIR {
        result[name] = "directory mode \(info.st_mode) modified \(modified)"
      } else {
        let bytes = try bytesOf(path)
        var hasher = FNV1a()
        hasher.combine(bytes)
        result[name] =
          "\(bytes.count) bytes fnv \(hasher.value) mode \(info.st_mode) modified \(modified)"
      }
    }
    var info = stat()
    if stat(directory, &info) == 0 {
      result["."] = "modified \(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
    }
    return result
  }

  /// 64-bit FNV-1a, enough to notice a changed byte.
  struct FNV1a {
    var value: UInt64 = 0xcbf2_9ce4_8422_2325
    mutating func combine(_ bytes: [UInt8]) {
      for byte in bytes {
        value ^= UInt64(byte)
        value = value &* 0x100_0000_01b3
      }
    }
  }

  /// Copies `source` (a directory of files) to `destination`.
  static func copyDirectory(_ source: String, to destination: String) throws {
    try FileManager.default.copyItem(atPath: source, toPath: destination)
  }
}

extension StoreFixtures {
  /// An outbox of eight entries: one delivered, one parked (HTTP 400), three pending; with
  /// `compact`, compacted into a snapshot before the last three were enqueued.
  static func outbox(_ directory: String, compact: Bool = false) async throws {
    let outbox = try Outbox<String>(
      directory: directory, fileSystem: PosixFileSystem(), codec: .utf8,
      journalOptions: journalOptions())
    for index in 1...2 { try await outbox.enqueue("item \(index)", key: "key-\(index)") }
    _ = try await outbox.deliverPending { batch in
      batch.key == "key-2" ? .http(status: 400) : .http(status: 200)
    }
    if compact { try await outbox.compact() }
    for index in 3...5 { try await outbox.enqueue("item \(index)", key: "key-\(index)") }
    try await outbox.close()
  }

  /// A settings file with two generations of 12-byte payloads.
  static func atomicFile(_ path: String) throws {
    let file = AtomicFile(path: path, fileSystem: PosixFileSystem())
    try file.write(Array(#"{"theme":11}"#.utf8))
    try file.write(Array(#"{"theme":12}"#.utf8))
  }

  /// Reopens a journal of sealed `.log` segments with compression on and appends as many
  /// records again: the new sealed segments are compressed, the old ones stay `.log`.
  static func compressSome(_ directory: String) throws {
    let journal = try StoreFixtures.openJournal(directory, options: journalOptions(compress: true))
    for index in 1...300 { _ = try journal.append(payload(1000 + index)) }
    try journal.close()
  }

  /// Sets the format version of a compressed segment's header to `version`, with its header
  /// checksum made valid again: a segment written by a newer format.
  static func rewriteCompressedVersion(_ path: String, to version: UInt8) throws {
    var bytes = try bytesOf(path)
    bytes[4] = version
    let crc = CRC32C.checksum(Array(bytes[0..<16]))
    for index in 0..<4 { bytes[16 + index] = UInt8(truncatingIfNeeded: crc >> (8 * index)) }
    try Data(bytes).write(to: URL(fileURLWithPath: path))
  }

  /// Sets the `STAF` envelope version of an atomic file to `version`, with its checksum made
  /// valid again: a file written by a newer format.
  static func rewriteEnvelopeVersion(_ path: String, to version: UInt8) throws {
    var bytes = try bytesOf(path)
    bytes[4] = version
    let crc = CRC32C.checksum(
      Array(bytes[20...]), continuing: CRC32C.checksum(Array(bytes[4..<16])))
    for index in 0..<4 { bytes[16 + index] = UInt8(truncatingIfNeeded: crc >> (8 * index)) }
    try Data(bytes).write(to: URL(fileURLWithPath: path))
  }

  /// Rewrites an outbox's snapshot, through the journal, with its format version set to
  /// `version`: a snapshot written by a newer format.
  static func rewriteOutboxSnapshotVersion(_ directory: String, to version: UInt8) throws {
    let journal = try StoreFixtures.openJournal(directory, options: journalOptions())
    guard var snapshot = try journal.snapshot() else {
      throw SetupError(description: "no snapshot in \(directory)")
    }
    snapshot.bytes[4] = version
    try journal.writeSnapshot(covering: snapshot.sequence, bytes: snapshot.bytes)
    try journal.close()
  }
}

extension StoreFixtures {
  /// Where each frame of a `.log` segment starts: `length:u32 | crc32c:u32 | body`, the body
  /// `length & 0x7fffffff` bytes (the top bit marks a sync marker); the walk stops at the end
  /// or at zeros.
  static func frameOffsets(_ path: String) throws -> [Int] {
    let bytes = try bytesOf(path)
    var offsets: [Int] = []
    var offset = 0
    while offset + 8 <= bytes.count {
      let length = (0..<4).reduce(0) { $0 | Int(bytes[offset + $1]) << (8 * $1) } & 0x7fff_ffff
      guard length > 0 else { break }
      offsets.append(offset)
      offset += 8 + length
    }
    return offsets
  }
}

extension StoreFixtures {
  /// Opens a journal the test itself closed a moment ago. A child process this test process
  /// spawns (for another test, in parallel) holds copies of the parent's descriptors between
  /// its fork and its exec, and with them the lock just released: a moment's wait ends that.
  static func openJournal(_ directory: String, options: JournalOptions = journalOptions())
    throws(StoreError) -> Journal
  {
    var attempts = 0
    while true {
      do throws(StoreError) {
        return try Journal.open(
          directory: directory, fileSystem: PosixFileSystem(), options: options)
      } catch {
        attempts += 1
        guard error.code == .locked, attempts < 200 else { throw error }
        usleep(10_000)
      }
    }
  }
}
