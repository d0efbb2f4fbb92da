import StoicForwarding

/// The command line of `stoic-agent`.
struct AgentArguments {
  /// A command line that cannot be used; exits 64.
  struct UsageError: Error {
    var message: String
  }

  var spool = ""
  var endpoint = ""
  var logs = 1000
  var metricsEvery: Duration = .seconds(1)
  var exitWhenDrained = false
  var batchRecords = 1000
  var encoding: OTLPEncoding?
  var gzip = true
  var help = false

  static let usage = """
    usage: stoic-agent --spool DIR [--endpoint URL] [options]

    An offline-first agent: logs N records (each with a unique seq attribute, 0…N−1 over the
    spool's whole life, each exactly once however often it is killed and restarted), records
    metrics, and forwards everything to an OTLP/HTTP endpoint, exactly once at a receiver that
    dedupes by Idempotency-Key. Without --endpoint, the endpoint comes from
    OTEL_EXPORTER_OTLP_ENDPOINT (or the _LOGS_/_METRICS_ variants); header fields from
    OTEL_EXPORTER_OTLP_HEADERS (or its alias STOIC_OTLP_HEADERS); the other OTEL_EXPORTER_OTLP_*
    variables, OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES apply too. With
    OTEL_SDK_DISABLED=true it forwards nothing, as an app would: it writes its records into the
    spool (no endpoint needed), says so on standard error and exits 0.

      --spool DIR            the telemetry spool (created if missing; required)
      --endpoint URL         the receiver's base URL, http://host:port (else from the
                             environment, as above)
      --logs N               records over the spool's life (default 1000)
      --metrics-every S      seconds between metrics samples (default 1)
      --exit-when-drained    exit 0 once everything is acknowledged (2 if a batch is parked)
      --batch-records N      records per batch (default 1000)
      --encoding E           protobuf (default) or json (wins over OTEL_EXPORTER_OTLP_PROTOCOL)
      --no-gzip              send bodies uncompressed
      --help                 this text
    """

  /// Parses `arguments` (without the program name).
  static func parse(_ arguments: [String]) throws(UsageError) -> AgentArguments {
    var result = AgentArguments()
    var index = 0
    func value(_ flag: String) throws(UsageError) -> String {
      index += 1
      guard index < arguments.count else { throw UsageError(message: "\(flag) needs a value") }
      return arguments[index]
    }
    func count(_ flag: String) throws(UsageError) -> Int {
      guard let number = Int(try value(flag)), number >= 0 else {
        throw UsageError(message: "\(flag) needs a whole number")
      }
      return number
    }
    while index < arguments.count {
      let flag = arguments[index]
      switch flag {
      case "--spool": result.spool = try value(flag)
      case "--endpoint": result.endpoint = try value(flag)
      case "--logs": result.logs = try count(flag)
      case "--batch-records": result.batchRecords = max(try count(flag), 1)
      case "--metrics-every":
        guard let seconds = Double(try value(flag)), seconds > 0, seconds <= 86_400 else {
          throw UsageError(message: "--metrics-every needs a number of seconds above 0")
        }
        result.metricsEvery = .milliseconds(Int64(seconds * 1000))
      case "--exit-when-drained": result.exitWhenDrained = true
      case "--encoding":
        switch try value(flag) {
        case "protobuf": result.encoding = .protobuf
        case "json": result.encoding = .json
        case let other: throw UsageError(message: "--encoding is protobuf or json, not '\(other)'")
        }
      case "--no-gzip": result.gzip = false
      case "--help", "-h": result.help = true
      default: throw UsageError(message: "unknown option '\(flag)'")
      }
      index += 1
    }
    if !result.help {
      guard !result.spool.isEmpty else { throw UsageError(message: "--spool DIR is required") }
    }
    return result
  }
}
