/// A fault ``SimulatedFileSystem`` injects into the operations that follow
/// ``SimulatedFileSystem/inject(_:)``.
///
/// Counted faults (`nth`) fire once, on the n-th matching call after injection, and are then
/// spent. Faults are not copied by ``SimulatedFileSystem/copy()`` and do not survive a crash.
public enum SimulatedFault: Sendable, Hashable {
  /// The n-th (1-based, counted from injection) write fails with `ENOSPC` (syscall `pwrite`);
  /// `partialBytes` of it land first, as a pending (unsynced) write.
  case noSpaceOnWrite(nth: Int, partialBytes: Int = 0)
  /// The n-th (1-based, counted from injection) ``SimulatedFileSystem/map(_:length:)`` fails
  /// with `ENOSPC` (syscall `posix_fallocate`) before changing anything: no blocks could be
  /// reserved.
  case noSpaceOnMap(nth: Int)
  /// The n-th (1-based, counted from injection) file sync fails with `EIO` (syscall `fsync`)
  /// and the file's pending writes and truncates are dropped, from the running process's view
  /// too ("fsyncgate"): the contents revert to the durable ones, and a later sync succeeds
  /// with the data gone.
  case ioErrorOnSync(nth: Int)
  /// Every read of the file at `path` fails with `EIO` (syscall `pread`) until
  /// ``SimulatedFileSystem/clearFaults()``.
  case ioErrorOnRead(path: String)
  /// ``SimulatedFileSystem/freeSpace(_:)`` reports this many bytes until
  /// ``SimulatedFileSystem/clearFaults()``.
  case freeSpace(UInt64)
}
