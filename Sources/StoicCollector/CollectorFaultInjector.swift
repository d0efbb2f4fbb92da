internal import StoicStore

/// Decides, request by request, which of the ``CollectorFaults`` applies, in arrival order
/// and with a seeded generator, under a lock (connections run on many threads).
final class CollectorFaultInjector: Sendable {
  /// What to do with a request once its head is read.
  enum RequestFault: Equatable {
    case none
    /// Read part of the body, then close the connection without an answer.
    case dropMidRequest
    /// Answer with this status (and `Retry-After`) without storing.
    case fail(status: Int, retryAfter: String?)
  }

  private struct State {
    var requests = 0
    var answers = 0
    var random: UInt64
  }

  let faults: CollectorFaults
  private let state: SleepingLock<State>

  init(_ faults: CollectorFaults) {
    self.faults = faults
    state = SleepingLock(State(random: faults.seed))
  }

  /// The fault for the next OTLP request.
  func nextRequest() -> RequestFault {
    guard !faults.isEmpty else { return .none }
    return state.withLock { state in
      state.requests += 1
      if state.requests <= faults.dropFirstRequests { return .dropMidRequest }
      if faults.dropRequestRate > 0, Self.draw(&state.random) < faults.dropRequestRate {
        return .dropMidRequest
      }
      let failing = state.requests - faults.dropFirstRequests
      if failing <= faults.failFirst
        || (faults.failureRate > 0 && Self.draw(&state.random) < faults.failureRate)
      {
        return .fail(status: faults.failStatus, retryAfter: faults.retryAfter)
      }
      return .none
    }
  }

  /// Whether to drop the connection instead of sending the answer to a stored request.
  func dropNextAnswer() -> Bool {
    guard faults.dropFirstResponses > 0 || faults.dropResponseRate > 0 else { return false }
    return state.withLock { state in
      state.answers += 1
      if state.answers <= faults.dropFirstResponses { return true }
      return faults.dropResponseRate > 0 && Self.draw(&state.random) < faults.dropResponseRate
    }
  }

  /// A uniform draw in [0, 1) from SplitMix64.
  private static func draw(_ state: inout UInt64) -> Double {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    z ^= z >> 31
    return Double(z >> 11) / Double(1 << 53)
  }
}
