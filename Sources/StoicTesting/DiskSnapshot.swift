/// The part of a simulated disk a crash acts on: durable contents and names, and the pending
/// operations a crash may keep, lose, tear or garble.
///
/// A value with copy-on-write storage, so that recording one after every operation is cheap.
struct DiskSnapshot: Sendable {
  /// A file's durable bytes and its pending (unsynced) changes, in order.
  struct Inode: Sendable {
    /// The bytes that survive any crash.
    var durable: [UInt8]
    /// Writes and truncates since the last sync, in order.
    var pending: [PendingFileOperation]
  }

  /// Every file, by inode number (including ones no longer named, while they may matter).
  var inodes: [Int: Inode] = [:]
  /// The names that survive any crash.
  var durableNames: [String: Int] = [:]
  /// Creates, renames and removes since each directory's last sync, in order.
  var pendingDirectoryOperations: [String: [PendingDirectoryOperation]] = [:]
  /// The directories (always durable in this model).
  var directories: Set<String> = [".", "/"]

  /// The inodes some crash image can give a name to: durable names and the targets of
  /// pending creates and renames.
  var reachableInodes: Set<Int> {
    var reachable = Set(durableNames.values)
    for operations in pendingDirectoryOperations.values {
      for operation in operations {
        if let inode = operation.namedInode { reachable.insert(inode) }
      }
    }
    return reachable
  }

  /// The durable state only: the disk after a crash that kept nothing pending.
  var durableFiles: [String: [UInt8]] {
    var files: [String: [UInt8]] = [:]
    for (path, inode) in durableNames {
      files[path] = inodes[inode]?.durable ?? []
    }
    return files
  }
}
