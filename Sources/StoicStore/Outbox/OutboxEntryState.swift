/// Where an outbox entry stands, as an app can show it.
public enum OutboxEntryState: UInt8, Sendable, Hashable, CustomStringConvertible {
  /// Waiting its turn. An entry found in flight when the outbox opens is put back here.
  case queued = 0
  /// Being sent right now.
  case inFlight = 1
  /// Delivered and acknowledged; it has left the outbox (its owned files are removed).
  case delivered = 2
  /// The receiver refused it permanently: parked, kept on disk with its last error, until the
  /// app re-queues or discards it.
  case needsAttention = 3

  /// `queued`, `inFlight`, `delivered` or `needsAttention`.
  public var description: String {
    switch self {
    case .queued: "queued"
    case .inFlight: "inFlight"
    case .delivered: "delivered"
    case .needsAttention: "needsAttention"
    }
  }
}
