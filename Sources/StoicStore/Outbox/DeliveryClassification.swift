/// The decision for one delivery attempt: done, try again later, or park.
public enum DeliveryClassification: Sendable, Hashable {
  /// The receiver has the entries. `rejected` counts items an OTLP partial success refused
  /// (0 for a plain 2xx); they are reported, never retried.
  case delivered(rejected: Int)
  /// "Not now": a busy receiver, a wrong session, a network failure. The entry goes back in
  /// line. `retryAfter` is the wait the receiver asked for, if it asked.
  case transient(reason: String, retryAfter: Duration?)
  /// The receiver refuses this payload; sending it again cannot succeed. The entry is parked
  /// (kept, visible, re-queueable by the app) and the drain continues with the next one.
  case permanent(reason: String)
  /// The receiver refuses the sender, not this payload (a 401 or 403: a missing, wrong or
  /// expired credential), so every other entry would get the same answer: the entry goes back
  /// in line (nothing is parked or lost), its reason is stored durably as its last error, and
  /// the drain stops at once, for its caller to back off and try again later.
  case halt(reason: String)
}
