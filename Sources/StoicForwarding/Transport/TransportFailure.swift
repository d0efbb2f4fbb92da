/// A request that got no HTTP answer.
///
/// The reason names what happened (`connection refused`, `TLS handshake failed`), never the
/// URL or a header, so it can be logged and stored.
public enum TransportFailure: Error, Sendable, Hashable, CustomStringConvertible {
  /// No answer: no route, DNS failure, connection refused or reset, TLS failure, a dropped
  /// connection.
  case network(String)
  /// The exchange took longer than the request's timeout.
  case timeout

  /// `network error: …` or `timeout`.
  public var description: String {
    switch self {
    case .network(let reason): "network error: \(reason)"
    case .timeout: "timeout"
    }
  }
}
