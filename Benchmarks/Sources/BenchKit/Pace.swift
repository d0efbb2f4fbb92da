import Glibc

/// Holds a loop to a rate: after `done` calls, sleeps until their share of time has passed.
public struct Pace: Sendable {
  /// Calls a second; 0 for as fast as it goes.
  public let perSecond: Int
  /// When the loop started (``MonotonicClock/now()``).
  public let start = MonotonicClock.now()

  /// A pace of `perSecond` calls a second, from now.
  public init(perSecond: Int) { self.perSecond = perSecond }

  /// Sleeps, every 64 calls, until `done` calls are due.
  public func wait(_ done: Int) {
    guard perSecond > 0, done % 64 == 0 else { return }
    let due = start + UInt64(done) * 1_000_000_000 / UInt64(perSecond)
    let now = MonotonicClock.now()
    if due > now { usleep(UInt32((due - now) / 1_000)) }
  }
}
