import StoicStore

/// The permissions a ``SimulatedFileSystem`` was asked to create files and directories with,
/// kept so tests can check them (``SimulatedFileSystem/permissions(_:)``); the crash model
/// does not use them.
struct SimulatedPermissions: Sendable {
  /// By inode: a file keeps its permissions through renames.
  var files: [Int: FilePermissions] = [:]
  /// By normalized path: directories are never renamed or removed.
  var directories: [String: FilePermissions] = [:]
}
