import StoicForwarding

/// A transport that answers every request 200 with an empty body (an OTLP full success)
/// without a network or a collector: the forwarding scenario's measure of the sender alone
/// (reading the spool, encoding, compressing, the outbox's writes).
struct NullReceiver: Transport {
  func send(_ request: TransportRequest) async throws(TransportFailure) -> TransportResponse {
    TransportResponse(status: 200)
  }
}
