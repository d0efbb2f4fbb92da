internal import StoicStore

/// The bodies of the batches a drain sends next, read from the spool, encoded and compressed
/// ahead of their turn: while batches are in flight (on the network, at the receiver, their
/// acknowledgements being written), the next ones (as many as may be in flight) are prepared on
/// the forwarder's preparing threads, so the cores work at once instead of in turn. With more
/// than one thread (``ForwarderOptions/preparers``), consecutive batches are prepared on the
/// threads in turn, each thread's in order: two batches are read, encoded and compressed at
/// once, on two cores.
///
/// Only reading and encoding run ahead. Sending stays where the outbox puts it: in the
/// outbox's order, each recorded before its send and released after its acknowledgement. A
/// prepared body is what reading the range at its send would give (the records of a range are
/// durable and never change), so a batch resent later, by this drain or after a restart,
/// carries the same body under the same key; which thread prepared it changes nothing.
final class BatchPrefetch: Sendable {
  /// A batch's body and what it holds.
  struct Prepared: Sendable {
    /// The body, or the error encoding it gave (``ForwardingError/Code/tooLarge``: answered
    /// 413 without a send).
    var body: Result<OTLPExporter.EncodedBody, ForwardingError>
    /// Log records or data points.
    var records: Int
    /// Records this build could not decode.
    var unreadable: Int
  }

  /// Reads, encodes and compresses one range (blocking: run on a preparing thread).
  typealias Preparation = @Sendable (SpoolRange) throws(StoreError) -> Prepared

  private let prepare: Preparation
  /// The threads batches are prepared on, in turn (at least one).
  private let preparers: [BlockingExecutor]
  /// How many batches after the one being sent are prepared ahead.
  private let depth: Int
  /// Preparations started, by key, and the range each key's successor in the drain's order.
  private let state = SleepingLock(State())

  private struct State {
    var started: [String: Task<Prepared, any Error>] = [:]
    var next: [String: (key: String, range: SpoolRange)] = [:]
    /// The preparing thread the next preparation started goes to.
    var turn = 0
  }

  /// A prefetch of `source`'s batches, encoded by `exporter`, preparing on `threads` threads:
  /// `reader` and as many more of its own as it takes.
  convenience init(
    source: SpoolBatchSource, exporter: OTLPExporter, reader: BlockingExecutor, threads: Int,
    depth: Int
  ) {
    self.init(reader: reader, threads: threads, depth: depth) { range throws(StoreError) in
      try source.prepare(range, exporter: exporter)
    }
  }

  /// A prefetch that prepares a range with `prepare` on `threads` threads: `reader` and as many
  /// more of its own as it takes.
  init(reader: BlockingExecutor, threads: Int, depth: Int, prepare: @escaping Preparation) {
    self.prepare = prepare
    preparers = [reader] + (1..<max(threads, 1)).map { _ in BlockingExecutor() }
    self.depth = max(depth, 1)
  }

  /// Sets the order a drain will send in (the outbox's pending batches); forgets whatever was
  /// prepared for an earlier one.
  func plan(_ batches: [(key: String, range: SpoolRange)]) {
    state.withLock { state in
      state.started = [:]
      state.next = [:]
      for (index, batch) in batches.enumerated().dropLast() {
        state.next[batch.key] = batches[index + 1]
      }
    }
  }

  /// The body of `range`, sent under `key`: the one prepared ahead if there is one, else
  /// prepared now. Starts preparing the batches after it, up to the depth.
  func body(key: String, range: SpoolRange) async throws -> Prepared {
    let task = state.withLock { state in
      let task = state.started.removeValue(forKey: key) ?? start(range, in: &state)
      var after = key
      for _ in 0..<depth {
        guard let next = state.next[after] else { break }
        if state.started[next.key] == nil {
          state.started[next.key] = start(next.range, in: &state)
        }
        after = next.key
      }
      return task
    }
    return try await task.value
  }

  /// Starts preparing `range` on the preparing thread whose turn it is.
  private func start(_ range: SpoolRange, in state: inout State) -> Task<Prepared, any Error> {
    let prepare = prepare
    let reader = preparers[state.turn]
    state.turn = (state.turn + 1) % preparers.count
    return Task {
      try await reader.run { () throws(StoreError) in try prepare(range) }
    }
  }
}
