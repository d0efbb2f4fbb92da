// The child process of the lifecycle test: Stoic bootstrapped in one call, run in a
// ServiceGroup beside a service that logs and counts until graceful shutdown. The test sends
// SIGTERM and checks that every record whose log call returned (each announced on stdout as
// `logged N`) was delivered or is durable in the spool, and that the process exits in time.
//
// Usage: stoic-lifecycle-child SPOOL_DIRECTORY ENDPOINT SHUTDOWN_TIMEOUT_MS
// It does its work only with the traits SwiftLog, SwiftMetrics and ServiceLifecycle.
#if SwiftLog && SwiftMetrics && ServiceLifecycle
  import Logging
  import Metrics
  import ServiceLifecycle
  import Stoic
  import StoicForwarding

  #if canImport(Glibc)
    import Glibc
  #elseif canImport(Darwin)
    import Darwin
  #endif

  /// Logs `record N` (metadata `seq`) and counts `lifecycle.records`, one a millisecond, until
  /// graceful shutdown; announces each record after its log call returned.
  struct Writer: Service {
    func run() async throws {
      let logger = Logger(label: "lifecycle")
      let counter = Counter(label: "lifecycle.records")
      await cancelWhenGracefulShutdown {
        var index = 0
        while !Task.isCancelled {
          logger.info("record \(index)", metadata: ["seq": "\(index)"])
          counter.increment()
          Self.say("logged \(index)")
          index += 1
          try? await Task.sleep(for: .milliseconds(1))
        }
      }
    }

    static func say(_ line: String) {
      let bytes = Array((line + "\n").utf8)
      _ = bytes.withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
    }
  }

  let arguments = CommandLine.arguments
  guard arguments.count == 4, let milliseconds = Int(arguments[3]) else {
    Writer.say("usage: stoic-lifecycle-child SPOOL_DIRECTORY ENDPOINT SHUTDOWN_TIMEOUT_MS")
    exit(2)
  }
  let telemetry = try await Stoic.bootstrap(directory: arguments[1]) {
    $0.exporter = OTLPExporterConfiguration(endpoint: arguments[2])
    $0.shutdownTimeout = .milliseconds(milliseconds)
    $0.forwarder.interval = .milliseconds(50)
  }
  let group = ServiceGroup(
    services: [telemetry, Writer()], gracefulShutdownSignals: [.sigterm],
    logger: Logger(label: "service-group"))
  Writer.say("ready")
  try await group.run()
  Writer.say("exited")
#else
  print("stoic-lifecycle-child needs the traits SwiftLog, SwiftMetrics and ServiceLifecycle")
#endif
