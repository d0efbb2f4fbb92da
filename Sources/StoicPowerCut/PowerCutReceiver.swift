import StoicForwarding
import StoicStore

/// An OTLP receiver in the workload's process that dedupes by `Idempotency-Key`, as a
/// collector does: it stores the first batch sent under each key (which of the workloads' log
/// records it held, read from the decoded request) and answers a key sent again without
/// storing it twice. A key sent again with other records is a conflict.
///
/// In the workload, a new batch is claimed (``PowerCutClaim/delivered(key:counters:)``) before
/// it is acknowledged, so the acknowledgement file is the receiver's memory; after a cut a
/// receiver that remembers those keys takes the re-drain. Every `losesAnswerEvery`-th request
/// is stored and its answer lost (the forwarder hears a network error and sends it again).
final class PowerCutReceiver: Transport {
  struct State {
    /// The records of each batch stored, by key.
    var stored: [String: [Int]] = [:]
    /// The keys stored since the receiver was made (not those it remembered).
    var new: [String] = []
    /// Keys sent again with other records.
    var conflicts: [String] = []
    /// Requests answered or failed.
    var requests = 0
  }

  let state: SleepingLock<State>
  let acknowledgements: PowerCutAcknowledgementWriter?
  let losesAnswerEvery: Int?

  init(
    remembering stored: [String: [Int]] = [:],
    acknowledgements: PowerCutAcknowledgementWriter? = nil, losesAnswerEvery: Int? = nil
  ) {
    state = SleepingLock(State(stored: stored))
    self.acknowledgements = acknowledgements
    self.losesAnswerEvery = losesAnswerEvery
  }

  func send(_ request: TransportRequest) async throws(TransportFailure) -> TransportResponse {
    let key = request.headers["Idempotency-Key"] ?? ""
    var counters: [Int] = []
    if request.url.hasSuffix("/v1/logs") {
      guard
        let decoded = try? OTLP.ExportLogsServiceRequest(decoding: request.body, as: .protobuf)
      else { return TransportResponse(status: 400) }
      for resource in decoded.resourceLogs {
        for scope in resource.scopeLogs {
          for record in scope.logRecords {
            if case .string(let message)? = record.body,
              let numbers = PowerCutLogRecord.numbers(inMessage: message)
            {
              counters.append(numbers.counter)
            }
          }
        }
      }
    }
    let (known, number) = state.withLock { state -> (Bool, Int) in
      state.requests += 1
      guard let stored = state.stored[key] else { return (false, state.requests) }
      if stored != counters { state.conflicts.append(key) }
      return (true, state.requests)
    }
    if !known {
      do throws(PowerCutError) {
        try acknowledgements?.claim(.delivered(key: key, counters: counters))
      } catch {
        return TransportResponse(status: 503)
      }
      state.withLock { state in
        state.stored[key] = counters
        state.new.append(key)
      }
    }
    if let losesAnswerEvery, number % losesAnswerEvery == 0 {
      throw .network("the answer was lost")
    }
    return TransportResponse(status: 200)
  }
}
