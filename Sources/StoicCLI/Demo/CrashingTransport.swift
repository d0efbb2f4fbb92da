import StoicForwarding
import StoicStore

/// The demo's stand-in for a sender killed mid-forwarding: passes requests to the real
/// transport until the receiver has accepted `crashAfter` of them; the last of those it
/// reports as lost (the receiver stored the batch, the sender never heard), and from then on
/// it is dead: nothing more leaves, as after a kill. What the forwarder left on disk is what a
/// kill at that moment leaves.
final class CrashingTransport: Transport {
  private let inner: any Transport
  private let crashAfter: Int
  private let accepted = SleepingLock(0)

  init(_ inner: any Transport, crashAfter: Int) {
    self.inner = inner
    self.crashAfter = crashAfter
  }

  /// Whether the simulated crash has happened.
  var crashed: Bool { accepted.withLock { $0 >= crashAfter } }

  func send(_ request: TransportRequest) async throws(TransportFailure) -> TransportResponse {
    guard !crashed else { throw .network("the sender is down (simulated crash)") }
    let response = try await inner.send(request)
    let count = accepted.withLock { count -> Int in
      if (200..<300).contains(response.status) { count += 1 }
      return count
    }
    if count >= crashAfter { throw .network("the sender crashed before the answer (simulated)") }
    return response
  }
}
