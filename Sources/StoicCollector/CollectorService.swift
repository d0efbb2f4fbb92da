internal import StoicForwarding
internal import StoicStore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What the collector does with a request: routing, authentication, faults, decoding,
/// dedupe and storage. The HTTP layer (``HTTPConnection``) reads and writes bytes and asks
/// this type what to answer.
final class CollectorService: Sendable {
  /// Where a request goes.
  enum Route: Sendable, Equatable {
    case export(OTLPSignal)
    case stats
  }

  /// What to do once a request's head is read.
  enum HeadDecision: Sendable {
    /// Read the body and call ``process(_:head:body:)``.
    case readBody(Route)
    /// Read part of the body, then drop the connection (an injected fault).
    case dropMidRequest
    /// Answer this without looking at the body (which is read and discarded if `readBody`,
    /// else the connection is closed after the answer).
    case answer(HTTPResponse, readBody: Bool)
  }

  /// What to do once the body is read.
  struct BodyOutcome: Sendable {
    var response: HTTPResponse
    /// Drop the connection partway through the response (an injected fault).
    var dropMidResponse = false
  }

  let archive: CollectorArchive
  let options: CollectorOptions
  private let faults: CollectorFaultInjector

  init(archive: CollectorArchive, options: CollectorOptions) {
    self.archive = archive
    self.options = options
    faults = CollectorFaultInjector(options.faults)
  }

  // MARK: Head

  func decide(_ head: HTTPRequestHead) -> HeadDecision {
    let route: Route? =
      switch head.path {
      case "/v1/logs": .export(.logs)
      case "/v1/metrics": .export(.metrics)
      case "/v1/traces": .export(.traces)
      case "/stats": .stats
      default: nil
      }
    let encoding = head.header("Content-Type").flatMap { OTLPEncoding(contentType: $0) }
    func refuse(_ status: Int, _ message: String, extra: [(String, String)] = []) -> HeadDecision {
      refused(status)
      var response =
        if case .export = route {
          HTTPResponse.otlpFailure(status, message, encoding: encoding ?? .protobuf)
        } else {
          HTTPResponse.text(status, message)
        }
      response.headers += extra.map { (name: $0.0, value: $0.1) }
      return .answer(response, readBody: head.contentLength <= options.limits.maxBodyBytes)
    }
    if let token = options.token, !Self.authorized(head.header("Authorization"), token: token) {
      return refuse(401, "a bearer token is required", extra: [("WWW-Authenticate", "Bearer")])
    }
    guard let route else { return refuse(404, "no such path") }
    switch route {
    case .stats:
      guard head.method == "GET" else {
        return refuse(405, "use GET", extra: [("Allow", "GET")])
      }
      return .readBody(.stats)
    case .export:
      guard head.method == "POST" else {
        return refuse(405, "use POST", extra: [("Allow", "POST")])
      }
      archive.update { $0.requests += 1 }
      guard head.contentLength <= options.limits.maxBodyBytes else {
        return refuse(
          413, "the body is larger than \(options.limits.maxBodyBytes) bytes")
      }
      switch faults.nextRequest() {
      case .none:
        return .readBody(route)
      case .dropMidRequest:
        archive.update { $0.faultsInjected += 1 }
        return .dropMidRequest
      case .fail(let status, let retryAfter):
        archive.update { $0.faultsInjected += 1 }
        var response = HTTPResponse.otlpFailure(
          status, "failed on purpose (fault injection)", encoding: encoding ?? .protobuf)
        if let retryAfter { response.headers.append((name: "Retry-After", value: retryAfter)) }
        return .answer(response, readBody: true)
      }
    }
  }

  /// Counts a request refused with `status` (``CollectorStats/rejectedRequests``), at whatever
  /// stage: the HTTP layer calls it for the heads it refuses and the requests too slow to
  /// arrive.
  func refused(_ status: Int) {
    archive.update { $0.reject(status) }
  }

  /// Compares the `Authorization` header with `Bearer <token>`: the scheme in any case and
  /// one or more spaces after it (RFC 9110, section 11.1), the token exactly, in time that
  /// does not depend on where they differ.
  static func authorized(_ header: String?, token: String) -> Bool {
    let scheme = Array("bearer".utf8)
    let value = Array((header ?? "").utf8)
    guard value.count > scheme.count,
      zip(value, scheme).allSatisfy({ $0 | 0x20 == $1 }),
      value[scheme.count] == UInt8(ascii: " ")
    else { return false }
    let given = value[scheme.count...].drop { $0 == UInt8(ascii: " ") }
    let expected = Array(token.utf8)
    var difference = UInt8(truncatingIfNeeded: expected.count ^ given.count)
    for (index, byte) in expected.enumerated() {
      let offset = given.startIndex + index
      difference |= byte ^ (offset < given.endIndex ? given[offset] : 0)
    }
    return difference == 0
  }

  // MARK: Body

  func process(_ route: Route, head: HTTPRequestHead, body: [UInt8]) -> BodyOutcome {
    switch route {
    case .stats:
      return BodyOutcome(
        response: HTTPResponse(
          status: 200, headers: [("Content-Type", "application/json")], body: archive.stats.json))
    case .export(let signal):
      let outcome = export(signal, head: head, body: body)
      if outcome.response.status >= 400, outcome.response.status < 500 {
        refused(outcome.response.status)
      }
      return outcome
    }
  }

  private func export(_ signal: OTLPSignal, head: HTTPRequestHead, body: [UInt8]) -> BodyOutcome {
    guard let encoding = head.header("Content-Type").flatMap({ OTLPEncoding(contentType: $0) })
    else {
      return BodyOutcome(
        response: .otlpFailure(
          415, "Content-Type must be application/x-protobuf or application/json",
          encoding: .protobuf))
    }
    func fail(_ status: Int, _ message: String) -> BodyOutcome {
      BodyOutcome(response: .otlpFailure(status, message, encoding: encoding))
    }
    var bytes = body
    let compression: CollectorBodyCompression
    switch head.header("Content-Encoding")?.lowercased().trimmingCharacters(in: " \t") {
    case nil, "", "identity":
      compression = .none
      guard body.count <= options.limits.maxDecodedBodyBytes else {
        return fail(413, "the body is larger than \(options.limits.maxDecodedBodyBytes) bytes")
      }
    case "gzip":
      compression = .gzip
      do {
        bytes = try Gzip.decompress(body, maxOutputSize: options.limits.maxDecodedBodyBytes)
      } catch  where error.code == .tooLarge {
        return fail(
          413, "the body expands to more than \(options.limits.maxDecodedBodyBytes) bytes")
      } catch {
        return fail(400, "the gzip body does not decompress: \(error.message)")
      }
    case "zstd":
      compression = .zstd
      do throws(StoreError) {
        bytes = try Zstd.decompress(
          body, maxOutputSize: options.limits.maxDecodedBodyBytes, overLimit: .quotaExceeded)
      } catch  where error.code == .quotaExceeded {
        return fail(
          413, "the body expands to more than \(options.limits.maxDecodedBodyBytes) bytes")
      } catch {
        return fail(400, "the zstd body does not decompress: \(error.message)")
      }
    default:
      return fail(415, "Content-Encoding must be gzip, zstd or identity")
    }
    let key = head.header("Idempotency-Key")
    if let key {
      guard !key.isEmpty, key.utf8.count <= 255, key.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F })
      else {
        return fail(400, "Idempotency-Key must be 1 to 255 visible ASCII characters")
      }
    }
    let decoded: Decoded
    do {
      decoded = try Self.decode(signal, bytes, as: encoding)
    } catch {
      let what =
        switch signal {
        case .logs: "an ExportLogsServiceRequest"
        case .metrics: "an ExportMetricsServiceRequest"
        case .traces: "an ExportTraceServiceRequest"
        }
      return fail(400, "the body is not \(what) in \(encoding.rawValue): \(error)")
    }
    // A protobuf request is stored as it came (a gzip or zstd body still compressed: fewer
    // bytes to write and sync); a JSON one as the protobuf it decoded to.
    let stored = decoded.normalized ?? (compression == .none ? bytes : body)
    let outcome: CollectorArchive.Outcome
    do {
      outcome = try archive.store(
        signal, key: key, body: stored,
        bodyCompression: decoded.normalized == nil ? compression : .none,
        checksum: CRC32C.checksum(decoded.normalized ?? bytes), recordCount: decoded.recordCount,
        producers: decoded.producers)
    } catch  where error.code == .invalidArgument {
      return fail(413, "the request is too large to store")
    } catch {
      return fail(503, "the collector could not store the request: \(error.code)")
    }
    let answer: CollectorArchive.Answer
    var extraHeaders: [(name: String, value: String)] = []
    switch outcome {
    case .conflict:
      return fail(422, "Idempotency-Key was already used with a different request")
    case .stored(let stored):
      answer = stored
    case .replayed(let stored):
      answer = stored
      extraHeaders.append((name: "Idempotent-Replayed", value: "true"))
    }
    let delay = options.faults.delay
    if delay > .zero {
      let (seconds, attoseconds) = delay.components
      var time = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
      var left = timespec()
      while nanosleep(&time, &left) != 0 && errno == EINTR { time = left }
    }
    let response = HTTPResponse(
      status: answer.status,
      headers: [("Content-Type", encoding.contentType)] + extraHeaders,
      body: Self.responseBody(signal, answer: answer, encoding: encoding))
    let drop = faults.dropNextAnswer()
    if drop { archive.update { $0.faultsInjected += 1 } }
    return BodyOutcome(response: response, dropMidResponse: drop)
  }

  /// What the collector keeps of a decoded request.
  struct Decoded {
    /// The request re-encoded as protobuf, for a JSON request; `nil` for a protobuf one.
    var normalized: [UInt8]?
    var recordCount: Int
    var producers: [CollectorBatch.Producer]
  }

  /// Decodes a request (refusing what is not one) and counts its records per producer. A
  /// protobuf logs request, stored as it came, is only checked and counted
  /// (``OTLPLogsProtobufSummary``): it refuses what the decoder refuses, without building
  /// every record and attribute. A JSON logs request is transcoded to the protobuf the model
  /// would encode (``OTLPLogsJSONTranscoder``), without building it either, when it has the
  /// usual shape; the model decodes the rest.
  private static func decode(_ signal: OTLPSignal, _ bytes: [UInt8], as encoding: OTLPEncoding)
    throws(ForwardingError) -> Decoded
  {
    switch signal {
    case .logs where encoding == .protobuf:
      let resources = try OTLPLogsProtobufSummary.summarize(bytes)
      return Decoded(
        normalized: nil, recordCount: resources.reduce(0) { $0 + $1.logRecords },
        producers: producers(resources.map { ($0.resource, $0.logRecords) }))
    case .logs:
      // A JSON request in the shape encoders write is turned into its protobuf in one walk;
      // anything else (and every refusal, with its error) goes through the model.
      if let transcoded = OTLPLogsJSONTranscoder.transcode(bytes) {
        return Decoded(
          normalized: transcoded.protobuf,
          recordCount: transcoded.resources.reduce(0) { $0 + $1.logRecords },
          producers: producers(transcoded.resources.map { ($0.resource, $0.logRecords) }))
      }
      let request = try OTLP.ExportLogsServiceRequest(decoding: bytes, as: encoding)
      return Decoded(
        normalized: encoding == .protobuf ? nil : request.encoded(as: .protobuf),
        recordCount: request.logRecordCount,
        producers: producers(
          request.resourceLogs.map { resource in
            (resource.resource, resource.scopeLogs.reduce(0) { $0 + $1.logRecords.count })
          }))
    case .metrics:
      let request = try OTLP.ExportMetricsServiceRequest(decoding: bytes, as: encoding)
      return Decoded(
        normalized: encoding == .protobuf ? nil : request.encoded(as: .protobuf),
        recordCount: request.dataPointCount,
        producers: producers(
          request.resourceMetrics.map { resource in
            (
              resource.resource,
              resource.scopeMetrics.reduce(0) { total, scope in
                scope.metrics.reduce(total) { $0 + $1.dataPointCount }
              }
            )
          }))
    case .traces:
      let request = try OTLP.ExportTraceServiceRequest(decoding: bytes, as: encoding)
      return Decoded(
        normalized: encoding == .protobuf ? nil : request.encoded(as: .protobuf),
        recordCount: request.spanCount,
        producers: producers(
          request.resourceSpans.map { resource in
            (resource.resource, resource.scopeSpans.reduce(0) { $0 + $1.spans.count })
          }))
    }
  }

  private static func responseBody(
    _ signal: OTLPSignal, answer: CollectorArchive.Answer, encoding: OTLPEncoding
  ) -> [UInt8] {
    let partial = answer.rejected != 0 || !answer.message.isEmpty
    switch signal {
    case .logs:
      return OTLP.ExportLogsServiceResponse(
        partialSuccess: partial
          ? OTLP.ExportLogsPartialSuccess(
            rejectedLogRecords: answer.rejected, errorMessage: answer.message) : nil
      ).encoded(as: encoding)
    case .metrics:
      return OTLP.ExportMetricsServiceResponse(
        partialSuccess: partial
          ? OTLP.ExportMetricsPartialSuccess(
            rejectedDataPoints: answer.rejected, errorMessage: answer.message) : nil
      ).encoded(as: encoding)
    case .traces:
      return OTLP.ExportTraceServiceResponse(
        partialSuccess: partial
          ? OTLP.ExportTracePartialSuccess(
            rejectedSpans: answer.rejected, errorMessage: answer.message) : nil
      ).encoded(as: encoding)
    }
  }

  /// Producers by name (`service.instance.id`, else `service.name`, else `unknown`) with
  /// their record counts, merged.
  private static func producers(_ resources: [(OTLP.Resource?, Int)]) -> [CollectorBatch.Producer] {
    var merged: [CollectorBatch.Producer] = []
    for (resource, records) in resources {
      let name =
        resource?.stringAttribute("service.instance.id") ?? resource?.stringAttribute(
          "service.name") ?? "unknown"
      if let index = merged.firstIndex(where: { $0.name == name }) {
        merged[index].records += records
      } else {
        merged.append(CollectorBatch.Producer(name: name, records: records))
      }
    }
    return merged
  }
}
