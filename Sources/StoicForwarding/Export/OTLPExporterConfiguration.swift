/// Where and how an ``OTLPExporter`` sends.
///
/// Header values (credentials) are held in ``headers``, an ``HTTPHeaders`` that never prints
/// them; load them from the environment (``OTelEnvironment`` reads OpenTelemetry's
/// `OTEL_EXPORTER_OTLP_*` variables) rather than writing them into code or files.
public struct OTLPExporterConfiguration: Sendable {
  /// The environment variable ``addHeaders(fromEnvironment:variable:)`` reads by default:
  /// `STOIC_OTLP_HEADERS`, an alias of OpenTelemetry's `OTEL_EXPORTER_OTLP_HEADERS` in the same
  /// format (`name=value,name2=value2`, values percent-encoded where needed), kept for
  /// existing setups. ``OTelEnvironment`` reads it only when `OTEL_EXPORTER_OTLP_HEADERS` is
  /// not set.
  public static let headersEnvironmentVariable = "STOIC_OTLP_HEADERS"

  /// The receiver's base URL, `http://` or `https://` (`https://otlp.example.com:4318`); the
  /// signal's path is appended.
  public var endpoint: String
  /// Paths for single signals, joined to ``endpoint``; a signal without one goes to its
  /// ``OTLPSignal/defaultPath`` (`/v1/logs`, `/v1/metrics`, `/v1/traces`).
  public var signalPaths: [OTLPSignal: String] = [:]
  /// The path for logs, `/v1/logs` by default: ``signalPaths``' entry for logs.
  public var logsPath: String {
    get { path(for: .logs) }
    set { signalPaths[.logs] = newValue }
  }
  /// The path for metrics, `/v1/metrics` by default: ``signalPaths``' entry for metrics.
  public var metricsPath: String {
    get { path(for: .metrics) }
    set { signalPaths[.metrics] = newValue }
  }
  /// The path for traces, `/v1/traces` by default: ``signalPaths``' entry for traces.
  public var tracesPath: String {
    get { path(for: .traces) }
    set { signalPaths[.traces] = newValue }
  }
  /// Protobuf (the default) or JSON.
  public var encoding: OTLPEncoding
  /// gzip at level 1 (the default) or none.
  public var compression: OTLPCompression
  /// Extra header fields sent with every request (authentication). `Content-Type`,
  /// `Content-Encoding`, `Content-Length`, `Host` and `Idempotency-Key` are the exporter's own
  /// and may not be set here.
  public var headers: HTTPHeaders
  /// Full URLs for single signals, used as they are (no path appended), as
  /// `OTEL_EXPORTER_OTLP_LOGS_ENDPOINT` and `OTEL_EXPORTER_OTLP_METRICS_ENDPOINT` are; a signal
  /// without one goes to ``endpoint`` joined with its path.
  public var signalEndpoints: [OTLPSignal: String] = [:]
  /// Header fields for single signals that replace ``headers`` for that signal, as
  /// `OTEL_EXPORTER_OTLP_LOGS_HEADERS` and `OTEL_EXPORTER_OTLP_METRICS_HEADERS` do.
  public var signalHeaders: [OTLPSignal: HTTPHeaders] = [:]
  /// How long one request may take.
  public var timeout: Duration
  /// How long one request of a single signal may take, where it differs from ``timeout`` (the
  /// metrics' from `OTEL_METRIC_EXPORT_TIMEOUT`).
  public var signalTimeouts: [OTLPSignal: Duration] = [:]
  /// The largest body (before compression) the exporter sends; a larger one is not sent and
  /// answered as the receiver would (413, a permanent failure). OTLP recommends 64 MiB.
  public var maximumBodyBytes: Int

  /// Creates a configuration; every parameter but the endpoint has the default described on
  /// its property.
  public init(
    endpoint: String, logsPath: String = OTLPSignal.logs.defaultPath,
    metricsPath: String = OTLPSignal.metrics.defaultPath, encoding: OTLPEncoding = .protobuf,
    compression: OTLPCompression = .gzip, headers: HTTPHeaders = HTTPHeaders(),
    timeout: Duration = .seconds(30), maximumBodyBytes: Int = 64 << 20
  ) {
    self.endpoint = endpoint
    if logsPath != OTLPSignal.logs.defaultPath { signalPaths[.logs] = logsPath }
    if metricsPath != OTLPSignal.metrics.defaultPath { signalPaths[.metrics] = metricsPath }
    self.encoding = encoding
    self.compression = compression
    self.headers = headers
    self.timeout = timeout
    self.maximumBodyBytes = maximumBodyBytes
  }

  /// The full URL for `signal`: its entry in ``signalEndpoints`` as it is, else ``endpoint``
  /// with the signal's path joined to its path (trailing slashes dropped) and its query kept
  /// (`http://h:4318?tenant=1` sends logs to `http://h:4318/v1/logs?tenant=1`).
  public func url(for signal: OTLPSignal) -> String {
    if let url = signalEndpoints[signal] { return url }
    let path = path(for: signal)
    guard let base = try? OTLPEndpoint(endpoint) else {
      // Not a usable URL (``validate()`` refuses it): joined as text, for the transport to refuse.
      var base = Substring(endpoint)
      while base.hasSuffix("/") { base = base.dropLast() }
      return String(base) + (path.hasPrefix("/") ? path : "/" + path)
    }
    return base.appendingPath(path).description
  }

  /// The path joined to ``endpoint`` for `signal`: its entry in ``signalPaths``, else its
  /// ``OTLPSignal/defaultPath``.
  public func path(for signal: OTLPSignal) -> String {
    signalPaths[signal] ?? signal.defaultPath
  }

  /// The header fields sent with `signal`'s requests: its entry in ``signalHeaders``, else
  /// ``headers``.
  public func headers(for signal: OTLPSignal) -> HTTPHeaders {
    signalHeaders[signal] ?? headers
  }

  /// The timeout of a request of `signal`: its own (``signalTimeouts``), else ``timeout``.
  public func timeout(for signal: OTLPSignal) -> Duration {
    signalTimeouts[signal] ?? timeout
  }

  /// The header names the exporter sets itself.
  static let reservedHeaders = [
    "Content-Type", "Content-Encoding", "Content-Length", "Host", "Idempotency-Key",
    "Transfer-Encoding",
  ]

  /// Checks that the configuration can work: endpoints ``OTLPEndpoint`` accepts, header
  /// fields that can go on the wire and are not the exporter's own, a gzip level in 0…9.
  ///
  /// - Throws: ``ForwardingError/Code/invalidArgument`` naming the problem (never a header
  ///   value).
  public func validate() throws(ForwardingError) {
    try Self.validateURL(endpoint)
    for url in signalEndpoints.values { try Self.validateURL(url) }
    for headers in [headers] + Array(signalHeaders.values) {
      try headers.validate()
      for name in Self.reservedHeaders where headers.contains(name) {
        throw ForwardingError(.invalidArgument, "header \(name) is set by the exporter itself")
      }
    }
    try compression.checkLevel()
  }

  /// Checks that `url` is an endpoint ``OTLPEndpoint`` accepts; the error never holds the URL
  /// (it may carry credentials).
  static func validateURL(_ url: String) throws(ForwardingError) {
    _ = try OTLPEndpoint(url)
  }

  /// Adds the header fields listed in an environment variable (by default
  /// ``headersEnvironmentVariable``), if it is set.
  ///
  /// The format is OpenTelemetry's: `name=value` pairs separated by commas, spaces around
  /// them ignored, values percent-decoded (`Authorization=Bearer%20abc`).
  ///
  /// - Throws: ``ForwardingError/Code/invalidArgument`` for a pair without `=` or a bad
  ///   percent escape; the message gives the pair's position, never its text.
  public mutating func addHeaders(
    fromEnvironment environment: [String: String],
    variable: String = OTLPExporterConfiguration.headersEnvironmentVariable
  ) throws(ForwardingError) {
    guard let list = environment[variable] else { return }
    for (name, value) in try Self.parseHeaderList(list) { headers.add(name, value) }
  }

  /// The pairs of an OpenTelemetry header list (`name=value,name2=value2`).
  ///
  /// - Throws: ``ForwardingError/Code/invalidArgument`` naming the position of a bad pair.
  public static func parseHeaderList(_ list: String) throws(ForwardingError) -> [(
    String, String
  )] {
    var pairs: [(String, String)] = []
    for (index, item) in list.split(separator: ",").enumerated() {
      let trimmed = item.trimmingSpaces
      if trimmed.isEmpty { continue }
      guard let equals = trimmed.firstIndex(of: "=") else {
        throw ForwardingError(.invalidArgument, "header pair \(index + 1) has no '='")
      }
      let name = trimmed[..<equals].trimmingSpaces
      guard !name.isEmpty,
        let value = percentDecoded(trimmed[trimmed.index(after: equals)...].trimmingSpaces)
      else {
        throw ForwardingError(.invalidArgument, "header pair \(index + 1) does not parse")
      }
      pairs.append((String(name), value))
    }
    return pairs
  }

  static func percentDecoded(_ text: Substring) -> String? {
    var bytes: [UInt8] = []
    var iterator = text.utf8.makeIterator()
    while let byte = iterator.next() {
      guard byte == UInt8(ascii: "%") else {
        bytes.append(byte)
        continue
      }
      guard let high = iterator.next().flatMap(HexDigit.value),
        let low = iterator.next().flatMap(HexDigit.value)
      else { return nil }
      bytes.append(high << 4 | low)
    }
    return String(validating: bytes, as: UTF8.self)
  }

}

/// Whether OTLP/HTTP bodies are compressed, and how.
public enum OTLPCompression: Sendable, Hashable {
  /// Sent as encoded.
  case none
  /// gzip at a zlib level (0 … 9), with `Content-Encoding: gzip`: what every OTLP/HTTP
  /// receiver reads (the specification's one compression).
  case gzip(level: Int32)
  /// zstd at a level (1 … 19), with `Content-Encoding: zstd`: for a receiver that reads it,
  /// as the OpenTelemetry Collector's OTLP/HTTP receiver and Stoic's example collector do.
  /// Cheaper to compress than gzip, and smaller. A receiver that does not read it takes the
  /// body for an uncompressed one and answers `400` (Rotel does), which parks the batch: choose
  /// it only for a receiver known to read it.
  case zstd(level: Int32)

  /// gzip at ``Gzip/defaultLevel``.
  public static let gzip = OTLPCompression.gzip(level: Gzip.defaultLevel)

  /// zstd at level 1, its fastest: a request body is compressed once, on the sender's time.
  public static let zstd = OTLPCompression.zstd(level: 1)

  /// Checks the level: gzip's in 0 … 9, zstd's in 1 … 19 (zstd's ultra levels take more
  /// memory to decompress than a receiver should be asked for).
  ///
  /// - Throws: ``ForwardingError/Code/invalidArgument`` for a level outside its range.
  func checkLevel() throws(ForwardingError) {
    switch self {
    case .none: return
    case .gzip(let level):
      guard (0...9).contains(level) else {
        throw ForwardingError(.invalidArgument, "gzip level \(level) is not in 0…9")
      }
    case .zstd(let level):
      guard (1...19).contains(level) else {
        throw ForwardingError(.invalidArgument, "zstd level \(level) is not in 1…19")
      }
    }
  }
}
