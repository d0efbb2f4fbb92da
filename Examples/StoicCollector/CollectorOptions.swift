/// How a ``Collector`` runs.
public struct CollectorOptions: Sendable {
  /// The environment variable `stoic-collector` reads a bearer token from when no `--token`
  /// is given: `STOIC_COLLECTOR_TOKEN`. (The library reads no environment: pass ``token``.)
  public static let tokenEnvironmentVariable = "STOIC_COLLECTOR_TOKEN"

  /// Where the collector keeps its journal (created if missing).
  public var dataDirectory: String
  /// The numeric address to bind, `127.0.0.1` by default. Any address other than loopback
  /// (`127.0.0.0/8`, `::1`) requires ``token``.
  public var host: String
  /// The TCP port; 0 picks a free one (see ``Collector/port``).
  public var port: UInt16
  /// A bearer token: when set, every request must carry `Authorization: Bearer <token>` or is
  /// answered 401. Required when bound beyond loopback.
  public var token: String?
  /// Request size, time and connection limits.
  public var limits: CollectorLimits
  /// Injected faults, for tests.
  public var faults: CollectorFaults

  /// Creates options; all but the directory have defaults (loopback, an ephemeral port, no
  /// token, default limits, no faults).
  public init(
    dataDirectory: String, host: String = "127.0.0.1", port: UInt16 = 0, token: String? = nil,
    limits: CollectorLimits = CollectorLimits(), faults: CollectorFaults = CollectorFaults()
  ) {
    self.dataDirectory = dataDirectory
    self.host = host
    self.port = port
    self.token = token
    self.limits = limits
    self.faults = faults
  }
}
