public import StoicStore
public import StoicTelemetry

/// Forwards a telemetry spool's logs and metrics to an OTLP/HTTP receiver, exactly once at a
/// receiver that dedupes by `Idempotency-Key`, however often the app is killed, the network
/// fails or the receiver restarts.
///
/// ```swift
/// let spool = try TelemetrySpool.open(at: "/var/lib/app/telemetry")
/// var configuration = OTLPExporterConfiguration(endpoint: "https://otlp.example.com:4318")
/// try configuration.addHeaders(fromEnvironment: ProcessInfo.processInfo.environment)
/// let forwarder = try await Forwarder.open(
///   spool: spool, exporter: try OTLPExporter(configuration: configuration))
/// await forwarder.start()          // in the background, with backoff
/// try await forwarder.drain()       // and by hand, joining the loop's round
/// try await forwarder.shutdown(timeout: .seconds(5))  // a final drain, bounded
/// ```
///
/// ## How a batch goes
///
/// 1. A batch is a range of one stream's sequences (``SpoolRange``), formed in order from the
///    end of the previous one, up to ``ForwarderOptions/maxRecords`` records or
///    ``ForwarderOptions/maxBytes`` bytes, over durable records only.
/// 2. Its key is derived from the spool's identity and the range (``SpoolRange/key(spool:)``);
///    the range (18 bytes, not the records) is recorded in the forwarder's `Outbox` under that
///    key, durably, before the first send (the batches formed together, up to
///    ``ForwarderOptions/lookahead`` per stream, in one write).
/// 3. It is read back from the spool, encoded as OTLP and sent with `Idempotency-Key`: the
///    reading and encoding run ahead, while the batches before it are in flight (prepared
///    on ``ForwarderOptions/preparers`` threads, one by default); up to
///    ``ForwarderOptions/inFlight`` sends run at once, started in order, each recorded in the
///    outbox before it starts. The outbox classifies
///    the answer: 2xx delivered; 408, 425, 429, 5xx and network errors
///    retried with backoff (honouring `Retry-After`); other 4xx parked, and the rest go on; an
///    OTLP partial success is delivered and its rejected count reported.
/// 4. Once acknowledged in the outbox, the batch's records leave the spool
///    (`dropThrough`), unless an older batch of the stream is still pending or parked: a
///    parked batch keeps its records until it is requeued or discarded (the spool's quota
///    still applies).
///
/// After a crash anywhere in this, the next drain resends a pending batch under its key with
/// the same body; a batch whose outbox entry never became durable is formed again from the same
/// first sequence, to the same range; a batch acknowledged whose records had not left the spool
/// yet is recognised by its key (the outbox remembers delivered keys) and released without a
/// send.
///
/// ## Where it keeps its state
///
/// The outbox lives in the spool's directory, in `forwarding/`. Header values (credentials)
/// live only in the exporter's configuration: never on disk, in an event or in a log.
///
/// ## Concurrency
///
/// An actor; blocking work runs off Swift's cooperative pool: the outbox on its own
/// `StoicStore/BlockingExecutor`, the spool's reads and syncs on the forwarder's. The log
/// path never waits for the forwarder.
public actor Forwarder {
  /// The spool forwarded.
  public nonisolated let spool: TelemetrySpool
  /// The batches, as ranges, with their keys and states.
  public nonisolated let outbox: Outbox<SpoolRange>
  /// How batches are encoded and sent.
  public nonisolated let exporter: OTLPExporter
  /// The options it was opened with.
  public nonisolated let options: ForwarderOptions
  let source: SpoolBatchSource
  let events: EventSink
  let reader: BlockingExecutor
  let prefetch: BatchPrefetch
  let sending: SleepingLock<ForwardingReport>
  /// The deadlines of the bounded drains in progress, by ticket: a send started meanwhile is
  /// bounded by the earliest (its request's timeout cut to what is left), so it ends by then
  /// even through a transport that would not observe its cancellation.
  let deadlines = SleepingLock<(next: Int, byTicket: [Int: ContinuousClock.Instant])>((0, [:]))
  /// The next sequence each stream's batches are formed from.
  var cursors: [SpoolStream: UInt64] = [:]
  /// Streams whose next batch may have been delivered before a restart.
  var probing: Set<SpoolStream> = Set(SpoolStream.allCases)
  /// Parked keys already reported.
  var parkedKeys: Set<String> = []
  /// The round in progress (the background loop's or a caller's), numbered in start order.
  var round: (number: Int, task: Task<Result<ForwardingReport, StoreError>, Never>)?
  /// How many rounds have started.
  var roundsStarted = 0
  /// Set by ``shutdown(timeout:)``: no new round starts.
  var isShutDown = false
  var loop: Task<Void, Never>?
  /// What every drain since open did.
  public private(set) var totals = ForwardingReport()

  /// The name of the outbox's folder in the spool's directory.
  public static let outboxFolder = "forwarding"

  /// Every event a forwarder can report to the sink given to
  /// ``open(spool:exporter:options:fileSystem:events:)``, and no other: its own
  /// (``ForwardingEvents/catalog``) and those of the storage core its outbox is built from (the
  /// outbox's `store.outbox_*`, its journal's, `AtomicFile`'s and the file system's: every
  /// `StoreEvents` event).
  public static let eventCatalog = EventCatalog(
    combining: [StoreEvents.catalog, ForwardingEvents.catalog])

  /// The combined event catalog (``eventCatalog``), for an instance.
  public nonisolated var eventCatalog: EventCatalog { Self.eventCatalog }

  init(
    spool: TelemetrySpool, outbox: Outbox<SpoolRange>, exporter: OTLPExporter,
    options: ForwarderOptions, events: EventSink
  ) {
    self.spool = spool
    self.outbox = outbox
    self.exporter = exporter
    self.options = options
    self.events = events
    source = SpoolBatchSource(spool: spool, options: options)
    reader = BlockingExecutor()
    prefetch = BatchPrefetch(
      source: source, exporter: exporter, reader: reader, threads: options.preparers,
      depth: options.inFlight)
    sending = SleepingLock(ForwardingReport())
  }

  /// Opens the forwarder of `spool`: its outbox (in `forwarding/` in the spool's directory) is
  /// opened and recovered on the outbox's own thread.
  ///
  /// - Parameters:
  ///   - spool: The open spool to forward.
  ///   - exporter: Where and how batches are sent (endpoint, encoding, compression, headers).
  ///   - options: Batch limits, resource, retry and backoff.
  ///   - fileSystem: The door to the disk for the outbox; the real disk by default.
  ///   - events: Where the forwarder's and its outbox's events go. Never the spool itself:
  ///     a forwarder that wrote into what it forwards would never be drained.
  /// - Throws: The outbox's errors (`StoreError/Code/locked` when another forwarder holds
  ///   it).
  public static func open(
    spool: TelemetrySpool, exporter: OTLPExporter, options: ForwarderOptions = ForwarderOptions(),
    fileSystem: any FileSystem = PosixFileSystem(), events: EventSink = .discard
  ) async throws(StoreError) -> Forwarder {
    let outbox = try await Outbox.open(
      directory: StorePath.join(spool.directory, outboxFolder), fileSystem: fileSystem,
      codec: SpoolRangeFormat.codec, options: options.outboxOptions, events: events)
    let forwarder = Forwarder(
      spool: spool, outbox: outbox, exporter: exporter, options: options, events: events)
    await forwarder.recoverCursors()
    return forwarder
  }

  /// Each stream's cursor: after its low-water mark and after every batch the outbox holds.
  func recoverCursors() async {
    let held = await outbox.pending + outbox.parked
    parkedKeys = Set(await outbox.parked.map(\.key))
    for stream in SpoolStream.allCases {
      var cursor = source.lowWaterMark(stream) + 1
      for entry in held where entry.item.stream == stream {
        cursor = max(cursor, entry.item.last + 1)
      }
      cursors[stream] = cursor
    }
  }

  /// Batches waiting to be sent, in order.
  public var pending: [OutboxEntry<SpoolRange>] { get async { await outbox.pending } }

  /// Batches parked after a permanent refusal, with their last error.
  public var parked: [OutboxEntry<SpoolRange>] { get async { await outbox.parked } }

  /// Forms and sends batches until every record logged before the drain's round started has
  /// been delivered (or parked), or a transient failure ends the drain (the report's
  /// ``ForwardingReport/haltedBecause``). Records logged during the round go with it in whole
  /// batches of ``ForwarderOptions/maxRecords``; the rest of them waits for the next round (the
  /// background loop's next drain, ``ForwarderOptions/interval`` later): a round does not chase
  /// a steady stream with a small batch, and a sync of the spool, per record that arrives.
  ///
  /// First takes a metrics sample (`MetricsSpool.flush()`, on the forwarder's
  /// thread), so current metric values go with this drain: a short-lived program's counters
  /// arrive without waiting for the sampler's interval. Log records logged before the call are
  /// synced by the drain itself.
  ///
  /// Composes with ``start()``: a drain called while another round runs (the background
  /// loop's, or another caller's) waits for that round, then runs one of its own unless a round
  /// started after the call, which covers it. When it returns, everything that was durable when
  /// it was called has been sent (or the report says why not). Cancelling the caller cancels
  /// the round it waits for; the batches in flight stay pending in the outbox and are resent
  /// under their keys by the next drain.
  ///
  /// - Parameter progress: Called with what the drain has done so far after each round of
  ///   batches (for a progress line); never on the log path.
  /// - Returns: What the rounds this call waited for did.
  /// - Throws: `StoreError` when the outbox or the spool cannot be written or read; nothing
  ///   acknowledged is lost, and the next drain goes on from where this one stopped.
  ///   `StoreError.Code.closed` after ``shutdown(timeout:)`` or ``close()``.
  @discardableResult
  public func drain(
    progress: (@Sendable (ForwardingReport) -> Void)? = nil
  ) async throws(StoreError) -> ForwardingReport {
    try await covering(sampling: true, progress: progress, final: false)
  }

  /// A ``drain(progress:)`` bounded by `timeout`: when the deadline passes, the round is
  /// cancelled (its sends in flight are interrupted and stay pending in the outbox, to be
  /// resent under their keys) and the report's ``ForwardingReport/haltedBecause`` says so. An
  /// endpoint that never answers, or refuses connections, costs at most the timeout.
  ///
  /// - Parameters:
  ///   - timeout: The longest the drain may take.
  ///   - progress: As for ``drain(progress:)``.
  /// - Returns: What the rounds this call waited for did.
  /// - Throws: As ``drain(progress:)``.
  @discardableResult
  public func drain(
    timeout: Duration, progress: (@Sendable (ForwardingReport) -> Void)? = nil
  ) async throws(StoreError) -> ForwardingReport {
    try await bounded(timeout) { [self] () async throws(StoreError) in
      try await covering(sampling: true, progress: progress, final: false)
    }
  }

  /// Shuts the forwarder down within `timeout`: no new round starts (``start()`` and
  /// ``drain(progress:)`` are refused from now on), the background loop stops, one final
  /// drain (with a metrics sample first, joining the round in progress if there is one) runs
  /// until everything durable is sent or the deadline passes, and the outbox is closed. The
  /// spool stays open: it is the app's.
  ///
  /// Nothing is lost when the deadline cuts the drain short: an interrupted send stays in
  /// flight in the outbox and is resent under its key by the next forwarder, and records not
  /// yet sent stay in the spool. Calling it again returns an empty report.
  ///
  /// The final drain ends a little before the deadline (a fifth of `timeout`, at most half a
  /// second): what remains is for interrupting its sends and closing the outbox, so the whole
  /// shutdown keeps to `timeout` (a send in flight is interrupted by its cancellation, and its
  /// request's timeout is cut to the deadline besides).
  ///
  /// - Parameter timeout: The longest the shutdown may take.
  /// - Returns: What the final drain did.
  /// - Throws: The final drain's or the outbox's `StoreError` (the outbox is closed either
  ///   way).
  @discardableResult
  public func shutdown(timeout: Duration) async throws(StoreError) -> ForwardingReport {
    guard !isShutDown else { return ForwardingReport() }
    let deadline = ContinuousClock.now + timeout
    isShutDown = true
    let running = loop
    loop = nil
    running?.cancel()
    var failure: StoreError?
    var report = ForwardingReport()
    let reserve = min(timeout / 5, .milliseconds(500))
    do throws(StoreError) {
      report = try await bounded(ContinuousClock.now.duration(to: deadline - reserve)) {
        [self] () async throws(StoreError) in
        try await covering(sampling: true, progress: nil, final: true)
      }
    } catch {
      failure = error
    }
    // The loop's round was joined (and cancelled at the deadline): the loop ends at once.
    await running?.value
    do throws(StoreError) {
      try await outbox.close()
    } catch {
      failure = failure ?? error
    }
    if let failure { throw failure }
    return report
  }

  /// Runs `body` (a drain) and cancels it when `timeout` has passed; the report then says that
  /// the deadline stopped it.
  private nonisolated func bounded(
    _ timeout: Duration,
    _ body: @escaping @Sendable () async throws(StoreError) -> ForwardingReport
  ) async throws(StoreError) -> ForwardingReport {
    let deadline = ContinuousClock.now + max(timeout, .zero)
    let ticket = deadlines.withLock { state in
      state.next += 1
      state.byTicket[state.next] = deadline
      return state.next
    }
    defer { _ = deadlines.withLock { $0.byTicket.removeValue(forKey: ticket) } }
    let (result, expired) = await Self.racing(timeout) { () async -> DrainResult in
      do throws(StoreError) {
        return .success(try await body())
      } catch {
        return .failure(error)
      }
    }
    var report = try result.get()
    if expired, report.haltedBecause != nil {
      report.haltedBecause = "the deadline passed (\(timeout))"
    }
    return report
  }

  /// Runs `body` beside a timer; when the timer ends first `body` is cancelled (and waited
  /// for: it must end soon after). Returns `body`'s result and whether the timer ended first.
  /// Cancelling the caller cancels `body`.
  static func racing<T: Sendable>(
    _ timeout: Duration, _ body: @escaping @Sendable () async -> T
  ) async -> (T, expired: Bool) {
    let work = Task { await body() }
    let expired = SleepingLock(false)
    let timer = Task {
      try? await Task.sleep(for: max(timeout, .zero))
      guard !Task.isCancelled else { return }
      expired.withLock { $0 = true }
      work.cancel()
    }
    let value = await withTaskCancellationHandler {
      await work.value
    } onCancel: {
      work.cancel()
    }
    timer.cancel()
    return (value, expired.withLock { $0 })
  }

  typealias DrainResult = Result<ForwardingReport, StoreError>

  /// Waits for (joins) the round in progress, then runs rounds until one that started after
  /// this call has ended: what was durable at the call has then been sent, or the report says
  /// why not. `final` is the shutdown's drain, the only one allowed once shut down.
  private func covering(
    sampling: Bool, progress: (@Sendable (ForwardingReport) -> Void)?, final: Bool
  ) async throws(StoreError) -> ForwardingReport {
    guard final || !isShutDown else {
      throw StoreError(.closed, "the forwarder is shut down", path: spool.directory)
    }
    if sampling { await sampleMetrics() }
    let ticket = roundsStarted
    var report = ForwardingReport()
    while true {
      if Task.isCancelled {
        report.haltedBecause = "cancelled"
        return report
      }
      if let running = round {
        let result = await Self.join(running.task)
        let covers = running.number > ticket
        switch result {
        case .success(let joined): report.add(joined)
        case .failure(let error): if covers { throw error }
        }
        if covers { return report }
        continue
      }
      guard final || !isShutDown else {
        throw StoreError(.closed, "the forwarder is shut down", path: spool.directory)
      }
      roundsStarted += 1
      let number = roundsStarted
      round = (number, Task { await self.runRound(number, progress: progress) })
    }
  }

  /// Waits for `task`; cancelling the waiter cancels it.
  private static func join(_ task: Task<DrainResult, Never>) async -> DrainResult {
    await withTaskCancellationHandler {
      await task.value
    } onCancel: {
      task.cancel()
    }
  }

  /// One round: forms and sends batches until the end or a halt.
  private func runRound(
    _ number: Int, progress: (@Sendable (ForwardingReport) -> Void)?
  ) async -> DrainResult {
    var report = ForwardingReport()
    let result: DrainResult
    do throws(StoreError) {
      try await drainRounds(&report, progress: progress)
      result = .success(report)
    } catch {
      result = .failure(error)
    }
    totals.add(report)
    if round?.number == number { round = nil }
    return result
  }

  /// Takes a metrics sample on the forwarder's thread, so that a drain forwards the current
  /// values; a failure is reported (the drain goes on with the samples already there).
  private func sampleMetrics() async {
    let metrics = spool.metrics
    do throws(StoreError) {
      try await reader.run { () throws(StoreError) in try metrics.flush() }
    } catch  where error.code == .closed {
      // The app closed the spool: its close took the last sample.
    } catch {
      events.emit(ForwardingEvents.sampleFailed, [("reason", error.description)])
    }
  }

  private func drainRounds(
    _ report: inout ForwardingReport, progress: (@Sendable (ForwardingReport) -> Void)?
  ) async throws(StoreError) {
    try await discardLost(&report)
    // The round's end: a batch of what is logged after this point goes only once full.
    var roundEnd: [SpoolStream: UInt64] = [:]
    for stream in SpoolStream.allCases { roundEnd[stream] = source.lastSequence(stream) }
    while true {
      let formed = try await formBatches(&report, roundEnd: roundEnd)
      let pending = await outbox.pending
      if pending.isEmpty {
        try await release(&report)
        if formed == 0 { return }
        continue
      }
      sending.withLock { $0 = ForwardingReport() }
      // The outbox sends its pending batches in this order: each one's body is prepared
      // while the ones before it are in flight.
      prefetch.plan(pending.map { (key: $0.key, range: $0.item) })
      // One lane per signal: a `Retry-After` on one holds only that signal's batches.
      let lane: @Sendable (SpoolRange) -> String = { $0.stream.description }
      let drained = try await outbox.deliverPending(
        batch: .single, inFlight: options.inFlight, lane: lane
      ) { [self] batch in
        try await send(batch)
      }
      prefetch.plan([])
      report.add(sending.withLock { $0 })
      report.rejectedByReceiver += drained.rejectedByReceiver
      report.haltedBecause = drained.haltedBecause
      report.retryNotBefore = drained.retryNotBefore
      report.haltedByReceiver = drained.haltedByReceiver
      report.held = Set(SpoolStream.allCases.filter { drained.heldLanes.contains($0.description) })
      report.stoppedOnlyByHold = false
      try await reportParked(&report)
      try await release(&report)
      progress?(report)
      if drained.haltedBecause != nil { return }
      // What is left is held: it waits for a later drain, after the time asked for.
      if drained.attempts == 0, !report.held.isEmpty {
        let names = report.held.map(\.description).sorted().joined(separator: " and ")
        report.haltedBecause = "the receiver asked to wait (Retry-After) before more \(names)"
        report.stoppedOnlyByHold = true
        return
      }
    }
  }

  /// Discards pending batches whose records all left the spool through its retention.
  private func discardLost(_ report: inout ForwardingReport) async throws(StoreError) {
    for entry in await outbox.pending
    where entry.item.last <= source.lowWaterMark(entry.item.stream) {
      try await outbox.discard(entry.key)
      report.batchesLost += 1
      events.emit(
        ForwardingEvents.batchLost, [("key", entry.key), ("range", entry.item.description)])
    }
    for stream in SpoolStream.allCases {
      cursors[stream] = max(cursors[stream] ?? 1, source.lowWaterMark(stream) + 1)
    }
  }

  /// Forms up to ``ForwarderOptions/lookahead`` batches per stream and records them in the
  /// outbox with one durable write; returns how many were recorded. The cursors move only once
  /// the write is durable. Past `roundEnd` (each stream's last sequence when the round started)
  /// a batch is formed only when a whole one is there
  /// (``SpoolBatchSource/formsBatch(from:roundEnd:last:batch:)``).
  private func formBatches(
    _ report: inout ForwardingReport, roundEnd: [SpoolStream: UInt64]
  ) async throws(StoreError) -> Int {
    var formed: [(item: SpoolRange, key: String)] = []
    var next = cursors
    for stream in SpoolStream.allCases {
      var count = 0
      while count < options.lookahead {
        let start = next[stream] ?? 1
        let source = self.source
        guard
          SpoolBatchSource.formsBatch(
            from: start, roundEnd: roundEnd[stream] ?? 0, last: source.lastSequence(stream),
            batch: options.maxRecords)
        else { break }
        guard
          let range = try await reader.run({ () throws(StoreError) in
            try source.formBatch(stream, from: start)
          })
        else { break }
        if probing.contains(stream) {
          if let delivered = await deliveredBefore(range) {
            report.batchesFoundDelivered += 1
            events.emit(
              ForwardingEvents.batchFoundDelivered,
              [("key", delivered.key(spool: spool.identity)), ("range", delivered.description)])
            next[stream] = delivered.last + 1
            cursors[stream] = delivered.last + 1
            continue
          }
          probing.remove(stream)
        }
        formed.append((range, range.key(spool: spool.identity)))
        count += 1
        next[stream] = range.last + 1
      }
    }
    guard !formed.isEmpty else { return 0 }
    let recorded = try await outbox.enqueue(contentsOf: formed)
    report.batchesFormed += recorded
    // @F1, @F2 (ForwarderRules): the cursors move past the batches only now, once recorded.
    let violation = ForwarderRules.checkForming(
      before: cursors, formed: formed.map(\.item), after: next)
    assert(violation == nil, "\(violation.map(String.init(describing:)) ?? "")")
    cursors = next
    return recorded
  }

  /// A batch starting where `range` starts, up to its end, that the outbox remembers as
  /// delivered: one formed before a restart, acknowledged, whose records had not left the spool.
  /// The longest such batch, asked of the outbox in one call (a call per candidate end was a
  /// round trip to the outbox's thread each: about 70 ms for a batch of 1,000 records at a
  /// forwarder's first round).
  private func deliveredBefore(_ range: SpoolRange) async -> SpoolRange? {
    guard range.last >= range.first else { return nil }
    let candidates = (range.first...range.last).reversed().map {
      SpoolRange(stream: range.stream, first: range.first, last: $0)
    }
    let identity = spool.identity
    guard
      let index = await outbox.firstDelivered(among: candidates.map { $0.key(spool: identity) })
    else { return nil }
    return candidates[index]
  }

  /// Sends one batch; runs on the global executor, beside the other sends in flight. Its body
  /// was prepared (read from the spool on a preparing thread, encoded, compressed) while
  /// the batches before it were in flight, and the preparation of the ones after it starts now.
  private nonisolated func send(_ batch: OutboxBatch<SpoolRange>) async throws -> DeliveryResponse {
    guard let range = batch.entries.first?.item else { return .http(status: 200) }
    let prepared = try await prefetch.body(key: batch.key, range: range)
    let records = prepared.records
    let unreadable = prepared.unreadable
    let limit = deadlines.withLock { $0.byTicket.values.min() }.map {
      ContinuousClock.now.duration(to: $0)
    }
    // A cancelled send (a drain past its deadline) returns at once, even through a transport
    // that does not observe cancellation: the outbox puts it back in line, and the exchange
    // runs on, unobserved, to its request's timeout.
    let exporter = self.exporter
    let response = try await abandoningOnCancel {
      try await exporter.export(prepared.body, idempotencyKey: batch.key, within: limit)
    }
    let classification = options.classifier.classify(
      response, nowMilliseconds: options.outbox.clock.now())
    sending.withLock { report in
      report.attempts += 1
      guard case .delivered = classification else { return }
      report.batchesDelivered += 1
      report.unreadableRecords += unreadable
      report.addDelivered(records, of: range.stream)
    }
    if unreadable > 0, case .delivered = classification {
      events.emit(
        ForwardingEvents.recordsUnreadable, [("key", batch.key), ("count", String(unreadable))])
    }
    if case .http(let status, _) = response, status == 401 || status == 403 {
      events.emit(ForwardingEvents.unauthorized, [("key", batch.key), ("status", String(status))])
    }
    if case .partialSuccess(let rejected, let message) = response, rejected > 0 {
      events.emit(
        ForwardingEvents.recordsRejected,
        [("key", batch.key), ("rejected", String(rejected)), ("message", message)])
    }
    return response
  }

  /// Reports batches parked since the last look.
  private func reportParked(_ report: inout ForwardingReport) async throws(StoreError) {
    for entry in await outbox.parked where !parkedKeys.contains(entry.key) {
      parkedKeys.insert(entry.key)
      report.batchesParked += 1
      events.emit(
        ForwardingEvents.batchParked,
        [
          ("key", entry.key), ("range", entry.item.description),
          ("reason", entry.lastError ?? "refused"),
        ])
    }
  }

  /// Lets each stream's acknowledged records leave the spool: everything before its oldest
  /// batch still pending or parked, or everything formed when there is none.
  private func release(_ report: inout ForwardingReport) async throws(StoreError) {
    let held = await outbox.pending + outbox.parked
    for stream in SpoolStream.allCases {
      var through = (cursors[stream] ?? 1) - 1
      for entry in held where entry.item.stream == stream {
        through = min(through, entry.item.first - 1)
      }
      let low = source.lowWaterMark(stream)
      guard through > low, through <= source.lastSequence(stream) else { continue }
      // @F3 (ForwarderRules): only what acknowledged batches held leaves the spool.
      let violation = ForwarderRules.checkRelease(
        stream, through: through, cursor: cursors[stream] ?? 1, held: held.map(\.item))
      assert(violation == nil, "\(violation.map(String.init(describing:)) ?? "")")
      let source = self.source
      let mark = through
      try await reader.run { () throws(StoreError) in try source.release(stream, through: mark) }
      report.recordsReleased += through - low
    }
  }

  /// Starts draining in the background: a drain every ``ForwarderOptions/interval`` while all
  /// goes well; after a drain that could not finish, waits with exponential backoff and jitter
  /// (or until the receiver's `Retry-After`), then tries again. Does nothing if running or
  /// after ``shutdown(timeout:)``.
  ///
  /// The loop's drains take no metrics sample of their own: they forward the samples the
  /// metrics spool's interval flush (`MetricsOptions.flushInterval`) writes,
  /// and the log records as they become durable. ``drain(progress:)`` may be called while it
  /// runs (it joins the loop's round), and ``shutdown(timeout:)`` ends it.
  public func start() {
    guard loop == nil, !isShutDown else { return }
    loop = Task { await self.runLoop() }
  }

  /// Stops the background loop and waits for the drain in progress to finish.
  public func stop() async {
    let running = loop
    loop = nil
    running?.cancel()
    await running?.value
  }

  private func runLoop() async {
    var failures = 0
    while !Task.isCancelled {
      var wait = options.interval
      do throws(StoreError) {
        let report = try await covering(sampling: false, progress: nil, final: false)
        if Task.isCancelled { break }
        if let reason = report.haltedBecause, !report.stoppedOnlyByHold {
          failures += 1
          wait = options.backoff(afterFailures: failures, random: Double.random(in: 0...1))
          // The outbox's hold is already cut to `maximumBackoff` (`outboxOptions`).
          if let notBefore = report.retryNotBefore {
            let asked = notBefore - options.outbox.clock.now()
            if asked > 0 { wait = max(wait, .milliseconds(asked)) }
          }
          events.emit(ForwardingEvents.drainHalted, [("reason", reason), ("retryIn", "\(wait)")])
        } else {
          failures = 0
        }
      } catch {
        if Task.isCancelled || isShutDown { break }
        failures += 1
        wait = options.backoff(afterFailures: failures, random: Double.random(in: 0...1))
        events.emit(
          ForwardingEvents.drainHalted, [("reason", error.description), ("retryIn", "\(wait)")])
      }
      try? await Task.sleep(for: wait)
    }
  }

  /// Stops the background loop (waiting for its round to finish, however long it takes) and
  /// closes the outbox (the spool stays open: it is the app's). ``shutdown(timeout:)`` is the
  /// bounded way, with a final drain.
  ///
  /// - Throws: The outbox's error.
  public func close() async throws(StoreError) {
    isShutDown = true
    await stop()
    try await outbox.close()
  }
}
