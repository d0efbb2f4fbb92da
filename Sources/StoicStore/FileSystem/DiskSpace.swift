/// A free-space check before a large write, so a full disk is reported before anything is
/// touched rather than in the middle of a write.
///
/// A preflight is advice, not a reservation: another writer can take the space between the
/// check and the write, so writes still handle `ENOSPC`. `ENOSPC`, `EROFS` and `EDQUOT` are
/// permanent for the store (their ``StoreError/retryDecision`` is ``RetryDecision/stop``):
/// retrying the same write cannot succeed until someone frees space, remounts or raises the
/// quota.
public enum DiskSpace {
  /// The headroom a preflight asks for beyond the bytes it will write: 1 MiB, for the file
  /// system's own metadata and the other files of the store.
  public static let defaultMargin: UInt64 = 1 << 20

  /// Checks that the file system holding `path` has `bytesNeeded + margin` bytes available.
  ///
  /// - Parameters:
  ///   - fileSystem: The file system to ask (``FileSystem/freeSpace(_:)``).
  ///   - path: The file about to be written, or any path on its file system; when nothing is
  ///     there yet, its directory is asked.
  ///   - bytesNeeded: The bytes the write will add.
  ///   - margin: Headroom to keep free beyond them.
  /// - Throws: ``StoreError/Code/diskFull`` (stop), with a message giving the bytes needed
  ///   and available, when there is not enough; the error of ``FileSystem/freeSpace(_:)`` when
  ///   the question cannot be asked.
  public static func preflight(
    _ fileSystem: any FileSystem, path: String, bytesNeeded: UInt64,
    margin: UInt64 = defaultMargin
  ) throws(StoreError) {
    let available: UInt64
    do throws(StoreError) {
      available = try fileSystem.freeSpace(path)
    } catch  where error.code == .notFound {
      available = try fileSystem.freeSpace(StorePath.directory(of: path))
    }
    let (required, overflow) = bytesNeeded.addingReportingOverflow(margin)
    guard !overflow, available >= required else {
      throw StoreError(
        .diskFull,
        "not enough free space for \(path): needs \(bytesNeeded) bytes plus a margin of "
          + "\(margin), \(available) available",
        path: path)
    }
  }
}
