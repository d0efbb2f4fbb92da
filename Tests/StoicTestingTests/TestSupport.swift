import StoicStore
import StoicTesting

/// Small helpers shared by the StoicTesting tests.
enum TestDisk {
  /// A disk holding a durable file at `path` with `text`.
  static func withDurableFile(_ path: String, _ text: String) -> SimulatedFileSystem {
    let disk = SimulatedFileSystem()
    disk.setDurableContents(path, Array(text.utf8))
    return disk
  }

  /// Writes `text` at `offset` through a fresh handle and closes it (no sync).
  static func write(
    _ text: String, to path: String, at offset: UInt64 = 0, on disk: SimulatedFileSystem
  ) throws(StoreError) {
    let handle = try disk.open(path, .createOrOpen)
    defer { try? disk.close(handle) }
    try disk.write(handle, Array(text.utf8), at: offset)
  }

  /// The text of a file's bytes.
  static func text(_ bytes: [UInt8]?) -> String? {
    bytes.map { String(decoding: $0, as: UTF8.self) }
  }

  /// The set of contents `path` has across `images` (nil where it is missing).
  static func variants(of path: String, in images: [CrashImage]) -> Set<[UInt8]?> {
    Set(images.map { $0.files[path] })
  }
}
