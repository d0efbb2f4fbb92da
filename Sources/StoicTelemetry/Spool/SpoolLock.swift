import StoicStore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The lock of a spool directory, `<root>/spool.lock`: an advisory lock held while the spool is
/// open, with the holder's process id written in the file, so that a second opener (in this
/// process or another) learns who holds it.
struct SpoolLock: Sendable {
  /// The lock file's name.
  static let name = "spool.lock"

  let path: String
  let handle: StoreFileHandle
  let fileSystem: any FileSystem

  /// Takes the lock of the spool at `root` and writes this process's id into the file.
  ///
  /// - Throws: ``StoreError/Code/locked`` naming the holder's process id when another handle
  ///   or process holds it; the file system's errors.
  static func acquire(root: String, fileSystem: any FileSystem) throws(StoreError) -> SpoolLock {
    let path = StorePath.join(root, name)
    let handle = try fileSystem.open(path, .createOrOpen)
    do throws(StoreError) {
      try fileSystem.lock(handle)
    } catch {
      try? fileSystem.close(handle)
      guard error.code == .locked else { throw error }
      let holder = (try? fileSystem.readWholeFile(path)).flatMap { $0 }.flatMap(Self.processID)
      let who = holder.map { "process \($0)" } ?? "another process (its id is not known yet)"
      throw StoreError(
        .locked, "the spool at \(root) is held by \(who)", path: path, cause: error)
    }
    // Which process holds it is information for a second opener, not data: not synced.
    let text = Array("\(getpid())\n".utf8)
    do throws(StoreError) {
      try fileSystem.truncate(handle, to: 0)
      try fileSystem.write(handle, text, at: 0)
    } catch {
      try? fileSystem.close(handle)
      throw error
    }
    return SpoolLock(path: path, handle: handle, fileSystem: fileSystem)
  }

  /// Releases the lock (closing the file releases it).
  func release() throws(StoreError) {
    try fileSystem.close(handle)
  }

  /// The process id written in a lock file, or `nil`.
  static func processID(_ bytes: [UInt8]) -> Int32? {
    let digits = bytes.prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    guard !digits.isEmpty, digits.count <= 10 else { return nil }
    return Int32(String(decoding: digits, as: UTF8.self))
  }
}
