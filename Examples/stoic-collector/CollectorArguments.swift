import StoicCollector

/// The command line of `stoic-collector`, parsed into collector options.
struct CollectorArguments {
  /// A command line that cannot be used; exits 64.
  struct UsageError: Error {
    var message: String
  }

  var options: CollectorOptions
  var help = false

  static let usage = """
    usage: stoic-collector --data DIR [options]

    Stoic's example OTLP/HTTP collector: POST /v1/logs, /v1/metrics and /v1/traces (protobuf
    or JSON, gzip or not), deduplicated by Idempotency-Key in its own journal; GET /stats.
    Prints "listening on HOST:PORT" when ready; SIGTERM or SIGINT stops it cleanly.

      --data DIR                   where the journal lives (required)
      --host ADDRESS               numeric address to bind (default 127.0.0.1); beyond loopback
                                   a token is required
      --port N                     port, 0 for any free one (default 0)
      --token TOKEN                require "Authorization: Bearer TOKEN" (default: the
                                   STOIC_COLLECTOR_TOKEN environment variable, if set)
    limits:
      --max-request-line-bytes N   (8192)      --max-head-bytes N        (32768)
      --max-headers N              (100)       --max-body-bytes N        (16 MiB)
      --max-decoded-body-bytes N   (64 MiB)    --max-connections N       (64)
      --max-requests-per-connection N (10000)
      --idle-timeout-ms N          (30000)     --read-timeout-ms N       (30000)
      --write-timeout-ms N         (30000)
    fault injection (tests):
      --fail-first N               answer the first N requests with --fail-status
      --fail-status S              (503)       --retry-after VALUE       Retry-After to send
      --failure-rate P             fail a fraction P of requests (0…1)
      --delay-ms N                 wait N ms before each answer
      --drop-first-requests N      drop the connection mid-request for the first N requests
      --drop-request-rate P        … for a fraction P of requests
      --drop-first-responses N     store, then drop the connection mid-response, N times
      --drop-response-rate P       … for a fraction P of stored requests
      --seed N                     seed for the rates (1)
      --help                       this text
    """

  /// Parses `arguments` (without the program name), reading the token from `environment`
  /// when no `--token` is given.
  static func parse(_ arguments: [String], environment: [String: String]) throws(UsageError)
    -> CollectorArguments
  {
    var data: String? = nil
    var options = CollectorOptions(dataDirectory: "")
    var index = 0
    func value(_ flag: String) throws(UsageError) -> String {
      index += 1
      guard index < arguments.count else { throw UsageError(message: "\(flag) needs a value") }
      return arguments[index]
    }
    func integer(_ flag: String, in range: ClosedRange<Int> = 0...Int.max) throws(UsageError)
      -> Int
    {
      let text = try value(flag)
      guard let number = Int(text), range.contains(number) else {
        throw UsageError(message: "\(flag) needs a whole number in \(range.lowerBound)…")
      }
      return number
    }
    func rate(_ flag: String) throws(UsageError) -> Double {
      let text = try value(flag)
      guard let number = Double(text), number >= 0, number <= 1 else {
        throw UsageError(message: "\(flag) needs a number from 0 to 1")
      }
      return number
    }
    func milliseconds(_ flag: String) throws(UsageError) -> Duration {
      .milliseconds(try integer(flag, in: 1...86_400_000))
    }
    var result = CollectorArguments(options: options)
    while index < arguments.count {
      let flag = arguments[index]
      switch flag {
      case "--help", "-h": result.help = true
      case "--data": data = try value(flag)
      case "--host": options.host = try value(flag)
      case "--port": options.port = UInt16(try integer(flag, in: 0...65535))
      case "--token": options.token = try value(flag)
      case "--max-request-line-bytes":
        options.limits.maxRequestLineBytes = try integer(flag, in: 16...Int.max)
      case "--max-head-bytes": options.limits.maxHeadBytes = try integer(flag, in: 16...Int.max)
      case "--max-headers": options.limits.maxHeaderCount = try integer(flag)
      case "--max-body-bytes": options.limits.maxBodyBytes = try integer(flag)
      case "--max-decoded-body-bytes": options.limits.maxDecodedBodyBytes = try integer(flag)
      case "--max-connections": options.limits.maxConnections = try integer(flag, in: 1...Int.max)
      case "--max-requests-per-connection":
        options.limits.maxRequestsPerConnection = try integer(flag, in: 1...Int.max)
      case "--idle-timeout-ms": options.limits.idleTimeout = try milliseconds(flag)
      case "--read-timeout-ms": options.limits.readTimeout = try milliseconds(flag)
      case "--write-timeout-ms": options.limits.writeTimeout = try milliseconds(flag)
      case "--fail-first": options.faults.failFirst = try integer(flag)
      case "--fail-status": options.faults.failStatus = try integer(flag, in: 100...599)
      case "--retry-after": options.faults.retryAfter = try value(flag)
      case "--failure-rate": options.faults.failureRate = try rate(flag)
      case "--delay-ms": options.faults.delay = .milliseconds(try integer(flag))
      case "--drop-first-requests": options.faults.dropFirstRequests = try integer(flag)
      case "--drop-request-rate": options.faults.dropRequestRate = try rate(flag)
      case "--drop-first-responses": options.faults.dropFirstResponses = try integer(flag)
      case "--drop-response-rate": options.faults.dropResponseRate = try rate(flag)
      case "--seed": options.faults.seed = UInt64(try integer(flag))
      default: throw UsageError(message: "unknown option \(flag)")
      }
      index += 1
    }
    if result.help { return result }
    guard let data, !data.isEmpty else { throw UsageError(message: "--data DIR is required") }
    options.dataDirectory = data
    if options.token == nil, let token = environment[CollectorOptions.tokenEnvironmentVariable],
      !token.isEmpty
    {
      options.token = token
    }
    result.options = options
    return result
  }
}
