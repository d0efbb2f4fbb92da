import StoicForwarding
import StoicStore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A receiver in memory that behaves as a deduplicating collector: it stores the first body
/// sent under each `Idempotency-Key` and answers a replayed key without storing it again; a
/// key replayed with another body is a conflict (a forwarder that re-forms a batch differently).
/// Answers come from a script, one per request, then 200.
final class FakeReceiver: Transport {
  /// What the script says to do with one request.
  enum Answer: Sendable {
    /// Answer with this status (and `Retry-After`), storing nothing.
    case status(Int, retryAfter: String? = nil)
    /// Store, and answer 200 with an OTLP partial success rejecting this many items.
    case partial(rejected: Int)
    /// Fail before the receiver sees anything.
    case networkError
    /// Store, then lose the answer: the sender hears a network error.
    case dropResponse
    /// Store and answer 200 (what happens once the script has run out).
    case store
  }

  /// One request as it arrived.
  struct Request: Sendable {
    var key: String
    var path: String
    /// The body, decompressed.
    var body: [UInt8]
    var headers: HTTPHeaders
  }

  struct State {
    var requests: [Request] = []
    var stored: [String: [UInt8]] = [:]
    var order: [String] = []
    var duplicates = 0
    var conflicts: [String] = []
    var script: [Answer] = []
  }

  let state: SleepingLock<State>
  /// Called with each request before it is answered (a crash test marks the disk there).
  let onRequest: @Sendable (Request) -> Void

  init(script: [Answer] = [], onRequest: @escaping @Sendable (Request) -> Void = { _ in }) {
    state = SleepingLock(State(script: script))
    self.onRequest = onRequest
  }

  /// Bodies stored under keys before: a receiver that already has them (after a crash).
  func preload(_ stored: [(String, [UInt8])]) {
    state.withLock { state in
      for (key, body) in stored where state.stored[key] == nil {
        state.stored[key] = body
        state.order.append(key)
      }
    }
  }

  func send(_ request: TransportRequest) async throws(TransportFailure) -> TransportResponse {
    var body = request.body
    if request.headers["Content-Encoding"] == "gzip" {
      guard let plain = try? Gzip.decompress(body, maxOutputSize: 64 << 20) else {
        return TransportResponse(status: 400)
      }
      body = plain
    }
    let path =
      request.url.hasSuffix("/v1/metrics")
      ? "/v1/metrics" : request.url.hasSuffix("/v1/traces") ? "/v1/traces" : "/v1/logs"
    let received = Request(
      key: request.headers["Idempotency-Key"] ?? "", path: path, body: body,
      headers: request.headers)
    onRequest(received)
    let answer = state.withLock { state -> Answer? in
      state.requests.append(received)
      return state.script.isEmpty ? nil : state.script.removeFirst()
    }
    switch answer {
    case .status(let status, let retryAfter)?:
      var headers = HTTPHeaders()
      if let retryAfter { headers.add("Retry-After", retryAfter) }
      return TransportResponse(status: status, headers: headers)
    case .networkError?:
      throw .network("connection refused")
    case .partial(let rejected)?:
      store(received)
      var headers = HTTPHeaders()
      headers.add("Content-Type", "application/x-protobuf")
      let response = OTLP.ExportLogsServiceResponse(
        partialSuccess: OTLP.ExportLogsPartialSuccess(
          rejectedLogRecords: Int64(rejected), errorMessage: "too old"))
      return TransportResponse(
        status: 200, headers: headers, body: response.encoded(as: .protobuf))
    case .dropResponse?:
      store(received)
      throw .network("connection reset")
    case .store?, nil:
      store(received)
      return TransportResponse(status: 200)
    }
  }

  private func store(_ request: Request) {
    state.withLock { state in
      if let body = state.stored[request.key] {
        state.duplicates += 1
        if body != request.body { state.conflicts.append(request.key) }
      } else {
        state.stored[request.key] = request.body
        state.order.append(request.key)
      }
    }
  }

  /// The stored log records (decoded from protobuf), in the order their batches were stored.
  func storedLogRecords() throws -> [OTLP.LogRecord] {
    let (order, stored, requests) = state.withLock { ($0.order, $0.stored, $0.requests) }
    var records: [OTLP.LogRecord] = []
    for key in order {
      guard let body = stored[key],
        requests.first(where: { $0.key == key })?.path == "/v1/logs"
      else { continue }
      let request = try OTLP.ExportLogsServiceRequest(decoding: body, as: .protobuf)
      for resource in request.resourceLogs {
        for scope in resource.scopeLogs { records.append(contentsOf: scope.logRecords) }
      }
    }
    return records
  }

  /// The stored spans (decoded from protobuf), in the order their batches were stored.
  func storedSpans() throws -> [OTLP.Span] {
    let (order, stored, requests) = state.withLock { ($0.order, $0.stored, $0.requests) }
    var spans: [OTLP.Span] = []
    for key in order {
      guard let body = stored[key],
        requests.first(where: { $0.key == key })?.path == "/v1/traces"
      else { continue }
      let request = try OTLP.ExportTraceServiceRequest(decoding: body, as: .protobuf)
      for resource in request.resourceSpans {
        for scope in resource.scopeSpans { spans.append(contentsOf: scope.spans) }
      }
    }
    return spans
  }

  /// The stored metrics' data points, as `name` per point.
  func storedMetricNames() throws -> [String] {
    let (order, stored, requests) = state.withLock { ($0.order, $0.stored, $0.requests) }
    var names: [String] = []
    for key in order {
      guard let body = stored[key],
        requests.first(where: { $0.key == key })?.path == "/v1/metrics"
      else { continue }
      let request = try OTLP.ExportMetricsServiceRequest(decoding: body, as: .protobuf)
      for resource in request.resourceMetrics {
        for scope in resource.scopeMetrics {
          for metric in scope.metrics {
            names.append(contentsOf: Array(repeating: metric.name, count: metric.dataPointCount))
          }
        }
      }
    }
    return names
  }
}

extension OTLP.LogRecord {
  /// The integer attribute `key`, if there is one.
  func integer(_ key: String) -> Int64? {
    if case .int(let value)? = attribute(key) { return value }
    return nil
  }

  /// The string attribute `key`, if there is one.
  func string(_ key: String) -> String? {
    if case .string(let value)? = attribute(key) { return value }
    return nil
  }
}
