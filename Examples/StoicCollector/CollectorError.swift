public import StoicStore

/// Why a collector could not start or stop.
public enum CollectorError: Error, Sendable, CustomStringConvertible {
  /// Bound beyond loopback without a bearer token.
  case tokenRequired(host: String)
  /// The host is not a numeric IPv4 or IPv6 address.
  case invalidHost(String)
  /// A socket call failed (`bind`: the port is taken, …).
  case socket(call: String, errno: Int32)
  /// The journal could not be opened or written.
  case store(StoreError)
  /// A limit or fault setting cannot work.
  case invalidOption(String)

  /// A sentence for a person.
  public var description: String {
    switch self {
    case .tokenRequired(let host):
      "bound to \(host), beyond loopback, the collector requires a bearer token "
        + "(--token or \(CollectorOptions.tokenEnvironmentVariable))"
    case .invalidHost(let host): "\(host) is not a numeric IPv4 or IPv6 address"
    case .socket(let call, let errno): "\(call) failed: \(StoreErrno(rawValue: errno))"
    case .store(let error): "the collector's journal: \(error)"
    case .invalidOption(let message): message
    }
  }
}
