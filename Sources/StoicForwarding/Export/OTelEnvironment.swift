import Foundation
public import StoicStore

/// OpenTelemetry's standard environment variables, read as its SDKs read them: the OTLP
/// exporter's endpoint, headers, protocol, compression and timeout, the service name, the
/// resource attributes and the switch that turns the SDK off.
///
/// The rules are those of the specification's "OTLP Exporter Configuration"
/// (<https://opentelemetry.io/docs/specs/otel/protocol/exporter/>, and
/// <https://opentelemetry.io/docs/languages/sdk-configuration/otlp-exporter/>) and
/// "Environment Variable Specification"
/// (<https://opentelemetry.io/docs/specs/otel/configuration/sdk-environment-variables/>):
///
/// - An empty variable counts as unset.
/// - `OTEL_EXPORTER_OTLP_ENDPOINT` is a base URL: `/v1/logs`, `/v1/metrics` and `/v1/traces`
///   are joined to its path (`http://collector:4318/mycollector/` sends logs to
///   `http://collector:4318/mycollector/v1/logs`). `OTEL_EXPORTER_OTLP_LOGS_ENDPOINT`,
///   `_METRICS_ENDPOINT` and `_TRACES_ENDPOINT` are used as they are and win over it; the other
///   signals then go to the base URL's default, `http://localhost:4318`.
/// - `OTEL_EXPORTER_OTLP_HEADERS` (`key=value,…`, values percent-decoded); a signal's
///   `OTEL_EXPORTER_OTLP_LOGS_HEADERS` / `_METRICS_HEADERS` / `_TRACES_HEADERS` replaces it for
///   that signal.
///   Stoic's `STOIC_OTLP_HEADERS` is an alias read only when `OTEL_EXPORTER_OTLP_HEADERS` is
///   not set.
/// - `OTEL_EXPORTER_OTLP_PROTOCOL` (and `_LOGS_` / `_METRICS_` / `_TRACES_`): `http/protobuf` (the
///   default) or `http/json`; `grpc` is refused with ``ForwardingError/Code/unsupported``,
///   never replaced by another protocol.
/// - `OTEL_EXPORTER_OTLP_COMPRESSION` (and per signal): `gzip` or `none`, and `zstd` for a
///   receiver that reads it (the OpenTelemetry Collector's OTLP/HTTP receiver does; the
///   specification names only gzip). Unset, Stoic keeps its own default, gzip (the
///   specification's default is none).
/// - `OTEL_EXPORTER_OTLP_TIMEOUT` (and per signal): milliseconds. Unset, the exporter's
///   default (30 s) stays.
/// - `OTEL_EXPORTER_OTLP_CERTIFICATE`, `_CLIENT_KEY`, `_CLIENT_CERTIFICATE` (and per signal)
///   are refused with ``ForwardingError/Code/unsupported``: the transports validate servers
///   against the system's trust store and cannot be given a CA file on every platform.
/// - `OTEL_SERVICE_NAME` wins over `service.name` in `OTEL_RESOURCE_ATTRIBUTES`, whose
///   default is `unknown_service:` and the executable's name.
/// - `OTEL_RESOURCE_ATTRIBUTES`: `key=value,…`, values percent-decoded.
/// - `OTEL_METRIC_EXPORT_INTERVAL`: milliseconds between two metrics samples (the metrics
///   spool's flush, which the forwarder sends at once). Unset, Stoic keeps its own 10 s (the
///   specification's default is 60 s): the interval is also how much a power loss may take.
/// - `OTEL_METRIC_EXPORT_TIMEOUT`: milliseconds a metrics request may take (the shorter of it
///   and the exporter's timeout); `0` is no limit of its own.
/// - `OTEL_SDK_DISABLED`: only `true`, in any case, turns it on. In Stoic it turns off
///   forwarding only: the spool keeps recording, so nothing is lost, and `stoic drain` or a
///   later run forwards what was kept.
///
/// One exporter sends every signal with one protocol, one compression and one timeout, so
/// per-signal values of those three that differ from each other are refused
/// (``ForwardingError/Code/unsupported``); traces take part only when their own variable is
/// set (unset, they follow the logs and the metrics). Per-signal endpoints and headers are
/// honoured.
///
/// A bad value throws a ``ForwardingError`` whose ``ForwardingError/variable`` and message
/// name the variable and never hold its value (headers carry credentials). Where telemetry
/// must never stop the app, ``ignoringInvalid(_:executableName:)`` reads the variables as the
/// specification asks an SDK to: an invalid value is ignored as if unset, and reported in
/// ``ignored``.
public struct OTelEnvironment: Sendable {
  /// Whether `OTEL_SDK_DISABLED` is `true` (in any case): forwarding is off.
  public var isSDKDisabled: Bool
  /// The exporter the variables describe, or `nil` when no endpoint variable is set.
  public var exporter: OTLPExporterConfiguration?
  /// `OTEL_SERVICE_NAME`, else `service.name` in `OTEL_RESOURCE_ATTRIBUTES`, else
  /// `unknown_service:<executable name>`.
  public var serviceName: String
  /// `OTEL_RESOURCE_ATTRIBUTES` in order (values percent-decoded), with `service.name` first,
  /// set to ``serviceName``.
  public var resourceAttributes: [(String, String)]
  /// `OTEL_SEMCONV_STABILITY_OPT_IN`: ``ForwarderOptions/CodeAttributes/currentAndDeprecated``
  /// when its comma-separated list holds `code/dup`, else the current names only.
  public var codeAttributes: ForwarderOptions.CodeAttributes
  /// `OTEL_METRIC_EXPORT_INTERVAL`: the time between two metrics samples, or `nil` when unset.
  public var metricExportInterval: Duration?
  /// `OTEL_METRIC_EXPORT_TIMEOUT`: how long a metrics request may take, or `nil` when unset or
  /// `0` (no limit of its own); already applied to ``exporter``'s metrics timeout.
  public var metricExportTimeout: Duration?
  /// The variables ``ignoringInvalid(_:executableName:)`` ignored, one error each (naming the
  /// variable, never its value), in the order they were met; empty after
  /// ``init(_:executableName:)``, which throws instead.
  public var ignored: [ForwardingError] = []

  /// The default OTLP/HTTP base URL, used for a signal without an endpoint of its own when
  /// only the other signal's variable is set.
  public static let defaultEndpoint = "http://localhost:4318"

  /// The service name OpenTelemetry prescribes when none is configured:
  /// `unknown_service:` and the executable's name (`unknown_service` without one).
  public static func defaultServiceName(executableName: String = Self.executableName)
    -> String
  {
    executableName.isEmpty ? "unknown_service" : "unknown_service:" + executableName
  }

  /// The process's environment variables.
  public static var processVariables: [String: String] { ProcessInfo.processInfo.environment }

  /// The last path component of the process's first argument.
  public static var executableName: String {
    let path = CommandLine.arguments.first ?? ""
    return path.split(separator: "/").last.map(String.init) ?? ""
  }

  /// Reads the variables.
  ///
  /// - Parameters:
  ///   - variables: The environment (`ProcessInfo.processInfo.environment`).
  ///   - executableName: The name in the default service name.
  /// - Throws: ``ForwardingError/Code/invalidArgument`` for a value that does not parse,
  ///   ``ForwardingError/Code/unsupported`` for one asking for what Stoic cannot do; both
  ///   name the variable, never its value.
  public init(_ variables: [String: String], executableName: String = Self.executableName)
    throws(ForwardingError)
  {
    let reader = Reader(variables: variables)
    isSDKDisabled = reader["OTEL_SDK_DISABLED"]?.lowercased() == "true"
    var attributes = try reader.resourceAttributes()
    let named = attributes.last { $0.0 == "service.name" }?.1
    serviceName =
      reader["OTEL_SERVICE_NAME"] ?? named
      ?? Self.defaultServiceName(executableName: executableName)
    attributes.removeAll { $0.0 == "service.name" }
    resourceAttributes = [("service.name", serviceName)] + attributes
    exporter = try reader.exporter()
    metricExportInterval = try reader["OTEL_METRIC_EXPORT_INTERVAL"].map {
      (text) throws(ForwardingError) in
      try Reader.timeout(text, variable: "OTEL_METRIC_EXPORT_INTERVAL")
    }
    metricExportTimeout = try reader["OTEL_METRIC_EXPORT_TIMEOUT"].flatMap {
      (text) throws(ForwardingError) in
      try Reader.milliseconds(text, allowingZero: true, variable: "OTEL_METRIC_EXPORT_TIMEOUT")
    }
    if let limit = metricExportTimeout, let timeout = exporter?.timeout(for: .metrics) {
      exporter?.signalTimeouts[.metrics] = min(timeout, limit)
    }
    let optIn = reader["OTEL_SEMCONV_STABILITY_OPT_IN"]?.split(separator: ",") ?? []
    codeAttributes =
      optIn.contains { $0.trimmingSpaces == "code/dup" } ? .currentAndDeprecated : .current
  }

  /// Reads the variables as the specification's error-handling rule asks of an SDK: a value
  /// that does not parse, or asks for what Stoic cannot do, is ignored as if unset and listed
  /// in ``ignored``; the rest applies. An invalid endpoint thus leaves no exporter (or the
  /// other signal's), an invalid protocol the default one, invalid headers none.
  ///
  /// - Parameters:
  ///   - variables: The environment (`ProcessInfo.processInfo.environment`).
  ///   - executableName: The name in the default service name.
  /// - Returns: What the valid variables describe, with ``ignored`` set.
  public static func ignoringInvalid(
    _ variables: [String: String], executableName: String = Self.executableName
  ) -> OTelEnvironment {
    var remaining = variables
    var ignored: [ForwardingError] = []
    while true {
      do throws(ForwardingError) {
        var environment = try OTelEnvironment(remaining, executableName: executableName)
        environment.ignored = ignored
        return environment
      } catch {
        ignored.append(error)
        if let name = error.variable, remaining[name] != nil {
          remaining[name] = nil
        } else {
          // Not one variable's fault: none of those read is kept (with none, nothing throws).
          remaining = remaining.filter { !Reader.isRead($0.key) }
        }
      }
    }
  }

  /// Reports each of ``ignored`` to `sink` as ``ForwardingEvents/settingIgnored`` (the
  /// variable and the reason, never the value).
  public func reportIgnored(to sink: EventSink) {
    for error in ignored {
      sink.emit(
        ForwardingEvents.settingIgnored,
        [("variable", error.variable ?? ""), ("reason", error.message)])
    }
  }

  /// `variables` with `endpoint` as `OTEL_EXPORTER_OTLP_ENDPOINT` and no per-signal endpoint:
  /// what a command-line flag such as `stoic drain --to URL` means, winning over the
  /// environment's endpoints while its headers, protocol and the rest still apply.
  public static func variables(_ variables: [String: String], endpoint: String) -> [String: String]
  {
    var result = variables
    result[Reader.prefix + "ENDPOINT"] = endpoint
    for signal in OTLPSignal.allCases { result[Reader.name("ENDPOINT", signal)] = nil }
    return result
  }

  /// The variables, with empty ones taken as unset.
  private struct Reader {
    var variables: [String: String]

    subscript(_ name: String) -> String? {
      guard let value = variables[name], !value.isEmpty else { return nil }
      return value
    }

    static let prefix = "OTEL_EXPORTER_OTLP_"

    /// Whether the reader may read the variable `name` (every `OTEL_` one, and the headers'
    /// alias).
    static func isRead(_ name: String) -> Bool {
      name.hasPrefix("OTEL_") || name == OTLPExporterConfiguration.headersEnvironmentVariable
    }

    /// The per-signal variable's name (`OTEL_EXPORTER_OTLP_LOGS_HEADERS`).
    static func name(_ option: String, _ signal: OTLPSignal) -> String {
      prefix + signal.rawValue.uppercased() + "_" + option
    }

    func resourceAttributes() throws(ForwardingError) -> [(String, String)] {
      guard let list = self["OTEL_RESOURCE_ATTRIBUTES"] else { return [] }
      return try Self.pairs(list, variable: "OTEL_RESOURCE_ATTRIBUTES")
    }

    func exporter() throws(ForwardingError) -> OTLPExporterConfiguration? {
      let base = self[Self.prefix + "ENDPOINT"]
      let signalEndpoints = OTLPSignal.allCases.compactMap { signal in
        self[Self.name("ENDPOINT", signal)].map { (signal, $0) }
      }
      try refuseCertificates()
      guard base != nil || !signalEndpoints.isEmpty else { return nil }
      if let base { try Self.checkURL(base, variable: Self.prefix + "ENDPOINT") }
      for (signal, url) in signalEndpoints {
        try Self.checkURL(url, variable: Self.name("ENDPOINT", signal))
      }
      var configuration = OTLPExporterConfiguration(
        endpoint: base ?? OTelEnvironment.defaultEndpoint)
      configuration.signalEndpoints = Dictionary(uniqueKeysWithValues: signalEndpoints)
      if let encoding = try shared("PROTOCOL", parse: Self.encoding) {
        configuration.encoding = encoding
      }
      if let compression = try shared("COMPRESSION", parse: Self.compression) {
        configuration.compression = compression
      }
      if let timeout = try shared("TIMEOUT", parse: Self.timeout) {
        configuration.timeout = timeout
      }
      let generic =
        self[Self.prefix + "HEADERS"].map { (Self.prefix + "HEADERS", $0) }
        ?? self[OTLPExporterConfiguration.headersEnvironmentVariable].map {
          (OTLPExporterConfiguration.headersEnvironmentVariable, $0)
        }
      if let (variable, list) = generic {
        configuration.headers = try Self.headers(list, variable: variable)
      }
      for signal in OTLPSignal.allCases {
        let variable = Self.name("HEADERS", signal)
        if let list = self[variable] {
          configuration.signalHeaders[signal] = try Self.headers(list, variable: variable)
        }
      }
      return configuration
    }

    /// The signals an option shared by every signal always takes part for (see ``shared(_:parse:)``):
    /// those there were before traces.
    static let firstSignals: Set<OTLPSignal> = [.logs, .metrics]

    /// An option every signal shares (one exporter sends them all): the per-signal variables
    /// win over the generic one, and must then agree. Traces (and any signal added after them)
    /// take part only when their own variable is set: unset, they follow the logs' and metrics'
    /// value, so that a setup written before traces (`_LOGS_` and `_METRICS_` both set apart
    /// from the generic value) reads as it did.
    func shared<Value: Equatable>(
      _ option: String, parse: (String, String) throws(ForwardingError) -> Value
    ) throws(ForwardingError) -> Value? {
      let genericName = Self.prefix + option
      let generic = try self[genericName].map { (text) throws(ForwardingError) in
        try parse(text, genericName)
      }
      var values: [Value?] = []
      for signal in OTLPSignal.allCases {
        let name = Self.name(option, signal)
        let value = try self[name].map { (text) throws(ForwardingError) in
          try parse(text, name)
        }
        if value == nil, !Self.firstSignals.contains(signal) { continue }
        values.append(value ?? generic)
      }
      guard let first = values.first, values.allSatisfy({ $0 == first }) else {
        let set = ([genericName] + OTLPSignal.allCases.map { Self.name(option, $0) })
          .filter { self[$0] != nil }
        throw ForwardingError(
          .unsupported,
          "\(set.joined(separator: ", ")) differ: one exporter sends every signal with the"
            + " same value",
          variable: set.first { $0 != genericName } ?? Self.name(option, .logs))
      }
      return first
    }

    func refuseCertificates() throws(ForwardingError) {
      for option in ["CERTIFICATE", "CLIENT_KEY", "CLIENT_CERTIFICATE"] {
        let names = [Self.prefix + option] + OTLPSignal.allCases.map { Self.name(option, $0) }
        for name in names where self[name] != nil {
          throw ForwardingError(
            .unsupported,
            "\(name) is not supported on this platform: the transport validates servers"
              + " against the system's trust store only", variable: name)
        }
      }
    }

    static func checkURL(_ url: String, variable: String) throws(ForwardingError) {
      do {
        try OTLPExporterConfiguration.validateURL(url)
      } catch {
        throw ForwardingError(.invalidArgument, "\(variable): \(error.message)", variable: variable)
      }
    }

    static func encoding(_ text: String, variable: String) throws(ForwardingError)
      -> OTLPEncoding
    {
      switch text[...].trimmingSpaces.lowercased() {
      case "http/protobuf": return .protobuf
      case "http/json": return .json
      case "grpc":
        throw ForwardingError(
          .unsupported,
          "\(variable) asks for gRPC, which Stoic does not speak: use http/protobuf or http/json",
          variable: variable)
      default:
        throw ForwardingError(
          .invalidArgument, "\(variable) is not http/protobuf or http/json", variable: variable)
      }
    }

    static func compression(_ text: String, variable: String) throws(ForwardingError)
      -> OTLPCompression
    {
      switch text[...].trimmingSpaces.lowercased() {
      case "gzip": return .gzip
      case "zstd": return .zstd
      case "none": return .none
      default:
        throw ForwardingError(
          .invalidArgument, "\(variable) is not gzip, zstd or none", variable: variable)
      }
    }

    static func timeout(_ text: String, variable: String) throws(ForwardingError) -> Duration {
      guard let duration = try milliseconds(text, allowingZero: false, variable: variable) else {
        throw ForwardingError(
          .invalidArgument, "\(variable) is not a positive number of milliseconds",
          variable: variable)
      }
      return duration
    }

    /// A whole number of milliseconds; `nil` for `0` when `allowingZero` (no limit).
    static func milliseconds(_ text: String, allowingZero: Bool, variable: String)
      throws(ForwardingError) -> Duration?
    {
      guard let milliseconds = Int64(text[...].trimmingSpaces),
        milliseconds > 0 || (allowingZero && milliseconds == 0)
      else {
        let least = allowingZero ? "a non-negative" : "a positive"
        throw ForwardingError(
          .invalidArgument, "\(variable) is not \(least) number of milliseconds",
          variable: variable)
      }
      return milliseconds == 0 ? nil : .milliseconds(milliseconds)
    }

    static func headers(_ list: String, variable: String) throws(ForwardingError)
      -> HTTPHeaders
    {
      var headers = HTTPHeaders()
      for (name, value) in try pairs(list, variable: variable) { headers.add(name, value) }
      do {
        try headers.validate()
      } catch {
        throw ForwardingError(
          .invalidArgument, "\(variable): \(error.message)", variable: variable)
      }
      for name in OTLPExporterConfiguration.reservedHeaders where headers.contains(name) {
        throw ForwardingError(
          .invalidArgument, "\(variable): header \(name) is set by the exporter itself",
          variable: variable)
      }
      return headers
    }

    /// `key=value,…` with values percent-decoded; the error gives the pair's position.
    static func pairs(_ list: String, variable: String) throws(ForwardingError) -> [(
      String, String
    )] {
      do {
        return try OTLPExporterConfiguration.parseHeaderList(list)
      } catch {
        throw ForwardingError(
          .invalidArgument, "\(variable): \(error.message)", variable: variable)
      }
    }
  }
}
