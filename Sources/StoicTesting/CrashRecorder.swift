import StoicStore

/// Passed to the operation under test so it can record what was acknowledged: a call that
/// returned successfully, whose effect must therefore survive every later crash.
///
/// Each acknowledgement is stamped with the crash point it happened at (the number of
/// operations performed so far); a ``CrashContext`` lists those at or before its crash point
/// in ``CrashContext/acknowledged``, and all of them in ``CrashContext/attempted``.
public final class CrashRecorder: Sendable {
  /// An acknowledged value and the crash point it was recorded at.
  struct Acknowledgement: Sendable {
    let value: String
    let crashPoint: Int
  }

  private let disk: SimulatedFileSystem
  private let recorded = SleepingLock<[Acknowledgement]>([])

  /// A recorder stamping acknowledgements with `disk`'s crash point.
  init(disk: SimulatedFileSystem) {
    self.disk = disk
  }

  /// Records that `value` was acknowledged now (at the current operation count).
  public func acknowledge(_ value: String) {
    let point = disk.currentCrashPoint
    recorded.withLock { $0.append(Acknowledgement(value: value, crashPoint: point)) }
  }

  /// Everything acknowledged, in order.
  var acknowledgements: [Acknowledgement] {
    recorded.withLock { $0 }
  }
}
