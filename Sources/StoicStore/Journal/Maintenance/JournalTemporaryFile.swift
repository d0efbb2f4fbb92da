/// A file the journal writes streaming under a temporary name and then puts in place
/// atomically: sync, close, rename over the destination, directory sync. Used for compressed
/// segments and salvaged segments, which are too large to build in memory for ``AtomicFile``.
struct JournalTemporaryFile {
  let fileSystem: any FileSystem
  let directory: String
  let path: String
  private let handle: StoreFileHandle
  private var open = true
  /// Bytes written so far (the next write goes here).
  private(set) var end: UInt64 = 0

  /// Creates `path` (a `*.tmp` name), removing a stale one left by an earlier attempt.
  init(path: String, directory: String, fileSystem: any FileSystem) throws(StoreError) {
    if try fileSystem.exists(path) { try fileSystem.remove(path) }
    self.handle = try fileSystem.open(path, .createExclusive)
    self.fileSystem = fileSystem
    self.directory = directory
    self.path = path
  }

  /// Appends `bytes` at the end.
  mutating func append(_ bytes: [UInt8]) throws(StoreError) {
    try fileSystem.write(handle, bytes, at: end)
    end += UInt64(bytes.count)
  }

  /// Makes the file durable and renames it to `destination`, then syncs the directory.
  /// `syncDirectoryFirst` also syncs the directory before the rename, for callers that
  /// created other files (quarantine copies) whose names must be durable before the rename.
  mutating func commit(as destination: String, syncDirectoryFirst: Bool = false)
    throws(StoreError)
  {
    try fileSystem.sync(handle)
    open = false
    try fileSystem.close(handle)
    if syncDirectoryFirst { try fileSystem.syncDirectory(directory) }
    try fileSystem.rename(path, to: destination)
    try fileSystem.syncDirectory(directory)
  }

  /// Closes the file if ``commit(as:syncDirectoryFirst:)`` did not (the temporary stays, and
  /// open removes it).
  mutating func abandon() {
    guard open else { return }
    open = false
    try? fileSystem.close(handle)
  }
}
