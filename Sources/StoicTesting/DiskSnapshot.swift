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
  /// Creates, renames, removes and made directories since each directory's last sync, in
  /// order.
  var pendingDirectoryOperations: [String: [PendingDirectoryOperation]] = [:]
  /// The directories as the running process sees them. One whose making is still pending in
  /// its parent (see ``PendingDirectoryOperation/makeDirectory(path:)``) is lost, with
  /// everything in it, by a crash that loses that operation.
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

  /// The directories made by pending operations, lost by a crash that loses them.
  var pendingDirectories: Set<String> {
    var made = Set<String>()
    for operations in pendingDirectoryOperations.values {
      for case .makeDirectory(let path) in operations { made.insert(path) }
    }
    return made
  }

  /// The directories that survive any crash: those whose making and whose parents' making
  /// are durable.
  var durableDirectories: Set<String> {
    DiskSnapshot.reachable(directories.subtracting(pendingDirectories))
  }

  /// The durable state only: the disk after a crash that kept nothing pending.
  var durableFiles: [String: [UInt8]] {
    let directories = durableDirectories
    var files: [String: [UInt8]] = [:]
    for (path, inode) in durableNames where directories.contains(SimulatedPath.parent(of: path)) {
      files[path] = inodes[inode]?.durable ?? []
    }
    return files
  }

  /// The directories of `directories` that a crash image can hold: each with its parent, up
  /// to `"."` or `"/"` (always there).
  static func reachable(_ directories: Set<String>) -> Set<String> {
    var kept: Set<String> = [".", "/"]
    // Parents sort before their children, so one pass in order sees each parent first.
    for directory in directories.sorted(by: { $0.utf8.count < $1.utf8.count })
    where kept.contains(SimulatedPath.parent(of: directory)) {
      kept.insert(directory)
    }
    return kept
  }
}
