/// Replaces a small file atomically: temporary, write, sync, rename, directory sync.
///
/// The same sequence as `AtomicFile` (kept here so the journal does not depend on it; to be
/// folded into `AtomicFile` once that lands).
enum JournalAtomicWrite {
  static func replace(_ path: String, with bytes: [UInt8], fileSystem: any FileSystem)
    throws(StoreError)
  {
    let temporary = path + JournalFileNames.temporarySuffix
    if try fileSystem.exists(temporary) { try fileSystem.remove(temporary) }
    let handle = try fileSystem.open(temporary, .createExclusive)
    do throws(StoreError) {
      try fileSystem.write(handle, bytes, at: 0)
      try fileSystem.sync(handle)
    } catch {
      try? fileSystem.close(handle)
      try? fileSystem.remove(temporary)
      throw error
    }
    try fileSystem.close(handle)
    try fileSystem.rename(temporary, to: path)
    try fileSystem.syncDirectory(Path.directory(of: path))
  }
}
