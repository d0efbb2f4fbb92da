/// A change to a directory's names that is not yet durable: it is lost or kept by a crash,
/// and made durable by a sync of the directory.
///
/// Every operation on a file is bound to its inode: a kept rename makes `to` name the renamed
/// inode whether or not the create of `from` was kept. A made directory is a name in its parent
/// like a file's: a crash that loses it loses the directory and everything in it, synced or
/// not.
enum PendingDirectoryOperation: Sendable, Hashable {
  /// A new file named `path`.
  case create(path: String, inode: Int)
  /// The file `inode` renamed from `from` to `to`, replacing whatever `to` named.
  case rename(from: String, to: String, inode: Int)
  /// The name `path` of `inode` removed.
  case remove(path: String, inode: Int)
  /// A new directory named `path` (`mkdir`).
  case makeDirectory(path: String)

  /// Applies the operation to a name table of files (a made directory names no file).
  func apply(to names: inout [String: Int]) {
    switch self {
    case .create(let path, let inode):
      names[path] = inode
    case .rename(let from, let to, let inode):
      if names[from] == inode { names[from] = nil }
      names[to] = inode
    case .remove(let path, let inode):
      if names[path] == inode { names[path] = nil }
    case .makeDirectory:
      break
    }
  }

  /// The inode the operation gives a name to, if it gives one.
  var namedInode: Int? {
    switch self {
    case .create(_, let inode), .rename(_, _, let inode): inode
    case .remove, .makeDirectory: nil
    }
  }

  /// `create a.tmp (inode 3)`, `rename a.tmp -> a (inode 3)`, `remove a (inode 2)`,
  /// `mkdir store`.
  var summary: String {
    switch self {
    case .create(let path, let inode): "create \(path) (inode \(inode))"
    case .rename(let from, let to, let inode): "rename \(from) -> \(to) (inode \(inode))"
    case .remove(let path, let inode): "remove \(path) (inode \(inode))"
    case .makeDirectory(let path): "mkdir \(path)"
    }
  }
}
