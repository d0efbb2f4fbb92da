import StoicForwarding
import StoicStore
import StoicTelemetry

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `stoic drain DIR [--to URL]`: forwards what a telemetry spool holds to an OTLP/HTTP receiver,
/// once, by hand, as the app's own forwarder would.
enum DrainCommand: StoicCommand {
  static let spec = CommandSpec(
    name: "drain",
    summary:
      "Forward what a telemetry spool holds to an OTLP/HTTP endpoint, exactly as the app's "
      + "forwarder would (writes; refused while the app holds the spool).",
    arguments: [ArgumentSpec("DIR", help: "A telemetry spool's directory.")],
    options: [
      .value(
        "to", valueName: "URL",
        help: "The receiver's base URL (http://host:4318); else OTEL_EXPORTER_OTLP_ENDPOINT."),
      .value(
        "encoding", valueName: "ENCODING", help: "protobuf (the default) or json."),
      .flag("no-gzip", help: "Send bodies uncompressed."),
    ],
    details: """
      On a terminal a progress line shows the batches delivered so far.

      Batches go to URL/v1/logs and URL/v1/metrics with an Idempotency-Key derived from the
      spool's identity and the batch's range, so a batch resent by the app or by a later drain
      is recognised by a receiver that dedupes by key. Without --to, the endpoint comes from
      OpenTelemetry's variables: OTEL_EXPORTER_OTLP_ENDPOINT (URL/v1/logs, URL/v1/metrics) or
      OTEL_EXPORTER_OTLP_LOGS_ENDPOINT / _METRICS_ENDPOINT (used as they are). Header fields
      (authentication) come from OTEL_EXPORTER_OTLP_HEADERS and its per-signal variants, or
      STOIC_OTLP_HEADERS (name=value,name2=value2, values percent-encoded); they are never
      written anywhere. _PROTOCOL, _COMPRESSION, _TIMEOUT, OTEL_SERVICE_NAME and
      OTEL_RESOURCE_ATTRIBUTES apply too; --encoding and --no-gzip win over them.
      OTEL_SDK_DISABLED does not stop a drain asked for by hand. Batches refused permanently are
      parked in the spool's forwarding/ folder (stoic inspect DIR/forwarding shows them); a
      receiver refusing the credentials (401, 403) stops the drain, the answer shown as the
      batch's LAST ERROR there.

      exit status: 0 everything delivered, 1 a batch parked, 2 the spool could not be read or
      written, 64 usage, 69 the spool is held by another process, 75 stopped on a transient
      failure (the receiver unreachable or asking to wait): run it again later, 77 the receiver
      refused the credentials (401, 403): check OTEL_EXPORTER_OTLP_HEADERS.
      """)

  @MainActor
  static func run(_ command: ParsedCommand, console: Console) async throws -> ExitStatus {
    guard let directory = command.argument(0) else {
      throw UsageError("drain needs the spool's directory", command: "drain")
    }
    let encoding: OTLPEncoding?
    switch command.value("encoding") {
    case nil: encoding = nil
    case "protobuf": encoding = .protobuf
    case "json": encoding = .json
    case let other?:
      throw UsageError("--encoding is protobuf or json, not '\(other)'", command: "drain")
    }
    var variables = OTelEnvironment.processVariables
    if let url = command.value("to") {
      variables = OTelEnvironment.variables(variables, endpoint: url)
    }
    let exporter: OTLPExporter
    let environment: OTelEnvironment
    do throws(ForwardingError) {
      environment = try OTelEnvironment(variables, executableName: "stoic")
      guard var configuration = environment.exporter else {
        throw ForwardingError(
          .invalidArgument, "drain needs --to URL or OTEL_EXPORTER_OTLP_ENDPOINT")
      }
      if let encoding { configuration.encoding = encoding }
      if command.flag("no-gzip") { configuration.compression = .none }
      exporter = try OTLPExporter(configuration: configuration)
    } catch {
      throw UsageError(error.message, command: "drain")
    }
    // A spool that cannot be looked into is unreadable (exit 2, the system's reason), not
    // "not a spool": only a spool.id known to be missing says that.
    let identity: UInt64?
    do throws(StoreError) {
      identity = try PosixFileSystem().fileSize(StorePath.join(directory, "spool.id"))
    } catch  where error.code == .notFound {
      identity = nil
    } catch {
      throw CommandFailure(.unreadable, "\(directory): \(error.message)")
    }
    guard identity != nil else {
      throw CommandFailure(.noStore, "\(directory): not a telemetry spool (no spool.id)")
    }
    let spool: TelemetrySpool
    do throws(StoreError) {
      spool = try TelemetrySpool.open(at: directory)
    } catch {
      if error.code == .locked { throw CommandFailure(.held, "\(directory): \(error.message)") }
      throw CommandFailure(.unreadable, "\(directory): \(error.message)")
    }
    defer { try? spool.close() }
    let report: ForwardingReport
    let parked: Int
    do throws(StoreError) {
      let forwarder = try await Forwarder.open(
        spool: spool, exporter: exporter,
        options: ForwarderOptions(resourceAttributes: environment.resourceAttributes))
      let line = console.progress
      report = try await forwarder.drain { done in
        line.update(
          "\(done.batchesDelivered) batches delivered (\(done.logRecordsDelivered) log records, "
            + "\(done.dataPointsDelivered) data points\(done.spansNote)), \(done.attempts) attempts"
        )
      }
      line.clear()
      parked = await forwarder.parked.count
      try await forwarder.close()
    } catch {
      if error.code == .locked { throw CommandFailure(.held, "\(directory): \(error.message)") }
      throw CommandFailure(.unreadable, "\(directory): \(error.message)")
    }
    console.line(
      "\(directory): \(report.batchesDelivered) batches delivered (\(report.logRecordsDelivered) "
        + "log records, \(report.dataPointsDelivered) data points\(report.spansNote)) in "
        + "\(report.attempts) attempts; \(parked) parked")
    if report.rejectedByReceiver > 0 {
      console.line("  the receiver rejected \(report.rejectedByReceiver) items (partial success)")
    }
    if let reason = report.haltedBecause {
      if report.haltedByReceiver {
        console.error(
          "stoic drain: the endpoint refused the credentials (\(reason)): check "
            + "OTEL_EXPORTER_OTLP_HEADERS; nothing was lost")
        return .refused
      }
      console.error("stoic drain: stopped: \(reason); run it again later")
      return .tryLater
    }
    return parked > 0 ? .damage : .success
  }
}

extension ForwardingReport {
  /// `, N spans` when the report delivered spans; nothing otherwise (a spool without spans
  /// reads as before).
  fileprivate var spansNote: String {
    spansDelivered > 0 ? ", \(spansDelivered) spans" : ""
  }
}
