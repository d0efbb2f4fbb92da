import StoicForwarding
import StoicStore
import StoicTelemetry

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `stoic-agent`: an offline-first agent as an app would write one (see `AgentArguments.usage`).

signal(SIGPIPE, SIG_IGN)

let arguments: AgentArguments
do {
  arguments = try AgentArguments.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
  AgentOutput.error(error.message)
  AgentOutput.error("run 'stoic-agent --help' for usage")
  exit(64)
}
if arguments.help {
  AgentOutput.line(AgentArguments.usage)
  exit(0)
}

var variables = OTelEnvironment.processVariables
if !arguments.endpoint.isEmpty {
  variables = OTelEnvironment.variables(variables, endpoint: arguments.endpoint)
}
// Unless the environment says otherwise, requests time out after 10 s.
variables["OTEL_EXPORTER_OTLP_TIMEOUT"] = variables["OTEL_EXPORTER_OTLP_TIMEOUT"] ?? "10000"
let exporter: OTLPExporter?
let environment: OTelEnvironment
do {
  environment = try OTelEnvironment(variables)
  if environment.isSDKDisabled {
    // As an app does: the spool keeps recording, nothing is sent (a later run or
    // `stoic drain` sends it).
    exporter = nil
  } else {
    guard var configuration = environment.exporter else {
      AgentOutput.error("--endpoint URL or OTEL_EXPORTER_OTLP_ENDPOINT is required")
      AgentOutput.error("run 'stoic-agent --help' for usage")
      exit(64)
    }
    if let encoding = arguments.encoding { configuration.encoding = encoding }
    if !arguments.gzip { configuration.compression = .none }
    exporter = try OTLPExporter(configuration: configuration)
  }
} catch {
  AgentOutput.error("\(error.message)")
  exit(64)
}

// Its own trouble (a refused credential, a collector down, records dropped) on standard error,
// one line per kind a minute at most, as a bootstrapped service says it.
let diagnostics = DiagnosticChannel(prefix: "stoic-agent").sink

var options = TelemetryOptions()
options.metrics.flushInterval = nil
let spool: TelemetrySpool
do {
  // A process started just before this one may still hold the spool's lock for a moment.
  var attempts = 0
  while true {
    do throws(StoreError) {
      spool = try TelemetrySpool.open(
        at: arguments.spool, options: options, events: diagnostics)
      break
    } catch  where error.code == .locked && attempts < 200 {
      attempts += 1
      usleep(25_000)
    }
  }
} catch {
  AgentOutput.error("cannot open the spool: \(error)")
  exit(1)
}

var outbox = OutboxOptions()
outbox.retryPolicy = RetryPolicy(
  initialDelay: .milliseconds(100), maxDelay: .seconds(1), maxAttempts: 4, drainBudget: 20,
  maxRetryAfter: .seconds(10))
let forwarderOptions = ForwarderOptions(
  maxRecords: arguments.batchRecords,
  resourceAttributes: environment.serviceName.hasPrefix("unknown_service")
    ? [("service.name", "stoic-agent")] + environment.resourceAttributes.dropFirst()
    : environment.resourceAttributes,
  outbox: outbox, interval: .milliseconds(200), initialBackoff: .milliseconds(200),
  maximumBackoff: .seconds(2))

let status: Int32
do {
  if let exporter {
    let forwarder = try await Forwarder.open(
      spool: spool, exporter: exporter, options: forwarderOptions, events: diagnostics)
    status = try await Agent(arguments: arguments, spool: spool, forwarder: forwarder).run()
    try await forwarder.close()
  } else {
    status = try await Agent(arguments: arguments, spool: spool, forwarder: nil).run()
  }
  try spool.close()
} catch {
  AgentOutput.error("\(error)")
  exit(1)
}
exit(status)
