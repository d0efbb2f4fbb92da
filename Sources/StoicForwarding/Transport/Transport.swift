/// Sends one HTTP request and reports what came back: the seam between the forwarder and the
/// network.
///
/// ``URLSessionTransport`` is the default. Tests (and apps with their own HTTP stack) supply
/// their own: a conforming type must be safe to call from several tasks at once, must bound
/// how much of a response body it reads, and must never write header values anywhere (they
/// may be credentials).
public protocol Transport: Sendable {
  /// Sends `request` and returns the receiver's answer, whatever its status.
  ///
  /// - Throws: ``TransportFailure`` when there was no HTTP answer at all.
  func send(_ request: TransportRequest) async throws(TransportFailure) -> TransportResponse
}
