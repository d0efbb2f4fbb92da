public import StoicForwarding
import StoicStore
public import StoicTelemetry

/// The handle ``Stoic/Stoic/bootstrap(directory:environment:configure:)`` returns: the open spool,
/// its forwarder (when an exporter is configured), and the one call that shuts them down.
///
/// ```swift
/// let telemetry = try await Stoic.bootstrap(directory: "/var/lib/app/telemetry")
/// // … the app logs through swift-log's Logger and counts through swift-metrics …
/// let report = await telemetry.shutdown(timeout: .seconds(5))
/// ```
///
/// With the trait `ServiceLifecycle` it is a swift-service-lifecycle `Service`: put it in the
/// app's `ServiceGroup`, and SIGTERM (graceful shutdown) ends ``run()`` with a shutdown bounded
/// by ``StoicConfiguration/shutdownTimeout``. Without the trait it is no `Service` (a
/// `ServiceGroup(services: [telemetry])` fails with "does not conform to 'Service'": turn on
/// the trait with `.package(path: "path/to/stoic", traits: ["ServiceLifecycle"])`); ``run()``
/// then forwards until its task is cancelled.
///
/// Safe to use from any task. A log call after the shutdown does not crash: the closed spool
/// drops the record and counts it (reason `after_close`, in the spool's drop counts for the
/// next start) and says so once (`spool.records_after_close`, on standard error by default).
/// In a `ServiceGroup`, list this service first: a group shuts its services down from the last
/// to the first, so the services after it stop logging before it closes the spool.
public final class StoicService: Sendable {
  /// The telemetry spool: the log spool (`TelemetrySpool.logs`) and the
  /// metrics spool (`TelemetrySpool.metrics`), usable with or without the
  /// traits.
  public let spool: TelemetrySpool
  /// The forwarder, when an exporter was configured (and forwarding not disabled).
  public let forwarder: Forwarder?
  /// The configuration it was bootstrapped with.
  public let configuration: StoicConfiguration
  /// The `OTEL_*` variables bootstrap ignored because their values were invalid, one error
  /// each (naming the variable, never its value); each was also reported to
  /// ``StoicConfiguration/events`` as `forwarding.setting_ignored`.
  public let ignoredSettings: [ForwardingError]
  /// The spool's blocking calls (flush, close) run here, never on Swift's cooperative pool.
  private let blocking = BlockingExecutor()
  /// The shutdown, once started: every caller waits for the same one.
  private let shutdownTask = SleepingLock<Task<StoicShutdownReport, Never>?>(nil)

  init(
    spool: TelemetrySpool, forwarder: Forwarder?, configuration: StoicConfiguration,
    ignoredSettings: [ForwardingError] = []
  ) {
    self.spool = spool
    self.forwarder = forwarder
    self.configuration = configuration
    self.ignoredSettings = ignoredSettings
  }

  /// Forwards until the task is cancelled (or, with the trait `ServiceLifecycle`, until
  /// graceful shutdown), then shuts down with ``StoicConfiguration/shutdownTimeout``. Without a
  /// forwarder it only waits, then shuts down.
  ///
  /// - Throws: Nothing today; `throws` as a `Service`'s `run()` does.
  public func run() async throws {
    if let forwarder { await forwarder.start() }
    await untilShutdownRequested()
    await shutdown(timeout: configuration.shutdownTimeout)
  }

  /// Suspends until the task is cancelled, or the service group shuts down gracefully.
  func untilShutdownRequested() async {
    #if ServiceLifecycle
      await untilGracefulShutdown()
    #else
      await Self.untilCancelled()
    #endif
  }

  /// Suspends until the task is cancelled.
  static func untilCancelled() async {
    while !Task.isCancelled {
      try? await Task.sleep(for: .seconds(3600))
    }
  }

  /// Shuts down within `timeout`, losing nothing: no new forwarding round starts, the
  /// records logged so far and the current metric values are made durable (a spool flush),
  /// one final drain runs with what is left of the timeout (an endpoint that never answers or
  /// refuses costs no more), then the outbox and the spool are closed.
  ///
  /// Whatever the final drain could not send stays in the spool (an interrupted send stays in
  /// flight in the outbox and is resent under its key): the next start, or `stoic drain`,
  /// forwards it. Calling it again, or from several tasks at once, returns the first call's
  /// report. Cancelling the caller does not cut the shutdown short.
  ///
  /// - Parameter timeout: The longest it may take (plus the time to close the files).
  /// - Returns: What was delivered, what is left in the spool, and the errors met.
  @discardableResult
  public func shutdown(timeout: Duration) async -> StoicShutdownReport {
    let task = shutdownTask.withLock { task in
      if let task { return task }
      let started = Task { await self.shuttingDown(timeout: timeout) }
      task = started
      return started
    }
    return await task.value
  }

  private func shuttingDown(timeout: Duration) async -> StoicShutdownReport {
    let clock = ContinuousClock()
    let start = clock.now
    let deadline = start + timeout
    var report = StoicShutdownReport()
    let spool = spool
    do throws(StoreError) {
      try await blocking.run { () throws(StoreError) in try spool.flush() }
    } catch {
      report.errors.append(error)
    }
    if let forwarder {
      do throws(StoreError) {
        report.finalDrain = try await forwarder.shutdown(
          timeout: max(clock.now.duration(to: deadline), .zero))
      } catch {
        report.errors.append(error)
      }
      report.delivered = await forwarder.totals
    }
    let left = await blocking.run { () -> (UInt64, UInt64) in
      let logs = spool.logs.lastSequence - min(spool.logs.lowWaterMark, spool.logs.lastSequence)
      let metrics =
        spool.metrics.lastSequence - min(spool.metrics.lowWaterMark, spool.metrics.lastSequence)
      return (logs, metrics)
    }
    report.logRecordsLeft = left.0
    report.metricRecordsLeft = left.1
    do throws(StoreError) {
      try await blocking.run { () throws(StoreError) in try spool.close() }
    } catch {
      report.errors.append(error)
    }
    report.duration = clock.now - start
    return report
  }
}
