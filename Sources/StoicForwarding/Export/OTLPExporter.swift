public import StoicStore

/// Sends OTLP/HTTP requests: encodes a request (protobuf or JSON) into a reused buffer,
/// compresses it with a reused gzip compressor, sends it through a ``Transport`` with its
/// `Idempotency-Key`, and says what the answer means to the outbox as a `DeliveryResponse`.
///
/// An outbox's delivery closure calls
/// ``export(_:idempotencyKey:)-(Request,_)`` with the batch's key; the same
/// key and records give the same body, so a resent batch is recognised by a receiver that dedupes
/// by key.
///
/// Safe to share between tasks: each encoding and compression takes a buffer and compressor
/// of its own from a pool (a lock held only to take or give one back, never across the work
/// or the send), so bodies are encoded and compressed on as many threads at once as call it.
public final class OTLPExporter: Sendable {
  /// Where and how it sends.
  public let configuration: OTLPExporterConfiguration
  private let transport: any Transport
  /// The scratches not in use; one more is made when all are.
  private let scratches: SleepingLock<[Scratch]>

  /// The buffers and compressor one request is built with, reused by a later one.
  private struct Scratch {
    var encoded: [UInt8] = []
    var compressor: (any BodyCompressor)?

    /// A scratch for `configuration`'s compression.
    init(_ configuration: OTLPExporterConfiguration) throws(ForwardingError) {
      compressor = try configuration.compression.makeCompressor()
    }
  }

  /// Creates an exporter.
  ///
  /// - Parameters:
  ///   - configuration: Endpoint, encoding, compression, headers.
  ///   - transport: How requests are sent; a ``DefaultTransport`` unless given.
  /// - Throws: ``ForwardingError/Code/invalidArgument`` for a configuration that cannot work
  ///   (see ``OTLPExporterConfiguration/validate()``).
  public init(
    configuration: OTLPExporterConfiguration, transport: any Transport = DefaultTransport()
  ) throws(ForwardingError) {
    try configuration.validate()
    self.configuration = configuration
    self.transport = transport
    scratches = SleepingLock([try Scratch(configuration)])
  }

  /// Runs `body` with a scratch no one else uses meanwhile: one from the pool, or a new one,
  /// given back to the pool after.
  private func withScratch<Result>(
    _ body: (inout Scratch) throws(ForwardingError) -> Result
  ) throws(ForwardingError) -> Result {
    var scratch: Scratch
    if let pooled = scratches.withLock({ $0.popLast() }) {
      scratch = pooled
    } else {
      scratch = try Scratch(configuration)
    }
    defer {
      let done = scratch
      scratches.withLock { $0.append(done) }
    }
    return try body(&scratch)
  }

  /// A request's body, encoded and compressed as configured, ready to be sent (by
  /// ``OTLPExporter/export(_:idempotencyKey:)-(EncodedBody,_)``) as often as needed. A
  /// forwarder encodes the next batch while the one before it is in flight.
  public struct EncodedBody: Sendable {
    /// The OTLP signal (endpoint path) it is sent to.
    public let signal: OTLPSignal
    /// The bytes sent: encoded, and compressed when the configuration says so.
    public let bytes: [UInt8]
    /// The `Content-Encoding` of ``bytes`` (`gzip`, `zstd`), or `nil` when they are sent as
    /// encoded.
    public let contentEncoding: String?

    /// Whether ``bytes`` are gzip-compressed.
    public var isGzip: Bool { contentEncoding == "gzip" }
  }

  /// `message` encoded and compressed as configured.
  ///
  /// - Throws: ``ForwardingError/Code/tooLarge`` for a body over
  ///   ``OTLPExporterConfiguration/maximumBodyBytes``; ``ForwardingError/Code/compression`` if
  ///   compression fails.
  public func encode(_ message: some OTLPMessage, signal: OTLPSignal) throws(ForwardingError)
    -> EncodedBody
  {
    let encoding = configuration.encoding
    let limit = configuration.maximumBodyBytes
    return try withScratch { (scratch) throws(ForwardingError) -> EncodedBody in
      scratch.encoded.removeAll(keepingCapacity: true)
      message.encode(as: encoding, into: &scratch.encoded)
      guard scratch.encoded.count <= limit else {
        throw ForwardingError(
          .tooLarge, "a body of \(scratch.encoded.count) bytes is over the limit of \(limit)")
      }
      return try Self.body(scratch.encoded, signal: signal, compressor: scratch.compressor)
    }
  }

  /// A body already encoded as protobuf (by a writer that builds it straight from stored
  /// bytes), compressed as configured.
  ///
  /// - Throws: ``ForwardingError/Code/invalidArgument`` when the exporter sends JSON;
  ///   ``ForwardingError/Code/tooLarge`` for a body over
  ///   ``OTLPExporterConfiguration/maximumBodyBytes``; ``ForwardingError/Code/compression`` if
  ///   compression fails.
  public func encode(protobuf bytes: [UInt8], signal: OTLPSignal) throws(ForwardingError)
    -> EncodedBody
  {
    try encode(encoded: bytes, as: .protobuf, signal: signal)
  }

  /// A body already encoded as OTLP JSON (by a writer that builds it straight from stored
  /// bytes), compressed as configured.
  ///
  /// - Throws: ``ForwardingError/Code/invalidArgument`` when the exporter sends protobuf;
  ///   ``ForwardingError/Code/tooLarge`` for a body over
  ///   ``OTLPExporterConfiguration/maximumBodyBytes``; ``ForwardingError/Code/compression`` if
  ///   compression fails.
  public func encode(json bytes: [UInt8], signal: OTLPSignal) throws(ForwardingError)
    -> EncodedBody
  {
    try encode(encoded: bytes, as: .json, signal: signal)
  }

  /// A body already encoded as `encoding`, compressed as configured.
  private func encode(encoded bytes: [UInt8], as encoding: OTLPEncoding, signal: OTLPSignal)
    throws(ForwardingError) -> EncodedBody
  {
    guard configuration.encoding == encoding else {
      throw ForwardingError(
        .invalidArgument,
        "this exporter sends \(configuration.encoding.rawValue), not \(encoding.rawValue)")
    }
    let limit = configuration.maximumBodyBytes
    guard bytes.count <= limit else {
      throw ForwardingError(
        .tooLarge, "a body of \(bytes.count) bytes is over the limit of \(limit)")
    }
    return try withScratch { (scratch) throws(ForwardingError) -> EncodedBody in
      try Self.body(bytes, signal: signal, compressor: scratch.compressor)
    }
  }

  /// `bytes` as sent: compressed by `compressor` if there is one.
  private static func body(
    _ bytes: [UInt8], signal: OTLPSignal, compressor: (any BodyCompressor)?
  ) throws(ForwardingError) -> EncodedBody {
    guard let compressor else {
      return EncodedBody(signal: signal, bytes: bytes, contentEncoding: nil)
    }
    var compressed: [UInt8] = []
    try compressor.compress(bytes, appendingTo: &compressed)
    return EncodedBody(
      signal: signal, bytes: compressed, contentEncoding: compressor.contentEncoding)
  }

  /// The HTTP request that carries `message` under `idempotencyKey`: the body encoded and
  /// compressed as configured, with `Content-Type`, `Content-Encoding`, `Idempotency-Key` and
  /// the configured header fields.
  ///
  /// - Throws: ``ForwardingError/Code/invalidArgument`` for a key that cannot be a header
  ///   value; ``ForwardingError/Code/tooLarge`` for a body over
  ///   ``OTLPExporterConfiguration/maximumBodyBytes``; ``ForwardingError/Code/compression``
  ///   if compression fails.
  public func request(
    for message: some OTLPMessage, signal: OTLPSignal, idempotencyKey: String?
  ) throws(ForwardingError) -> TransportRequest {
    try request(for: encode(message, signal: signal), idempotencyKey: idempotencyKey)
  }

  /// The HTTP request that carries an encoded body under `idempotencyKey`.
  ///
  /// - Throws: ``ForwardingError/Code/invalidArgument`` for a key that cannot be a header
  ///   value.
  public func request(for body: EncodedBody, idempotencyKey: String?) throws(ForwardingError)
    -> TransportRequest
  {
    var headers = HTTPHeaders()
    headers.add("Content-Type", configuration.encoding.contentType)
    if let idempotencyKey {
      guard !idempotencyKey.isEmpty,
        idempotencyKey.utf8.allSatisfy({ $0 >= 0x21 && $0 < 0x7F })
      else {
        throw ForwardingError(
          .invalidArgument, "an idempotency key must be visible ASCII without spaces")
      }
      headers.add("Idempotency-Key", idempotencyKey)
    }
    if let encoding = body.contentEncoding { headers.add("Content-Encoding", encoding) }
    for (name, value) in configuration.headers(for: body.signal).fields {
      headers.add(name, value)
    }
    return TransportRequest(
      url: configuration.url(for: body.signal), headers: headers, body: body.bytes,
      timeout: configuration.timeout(for: body.signal))
  }

  /// Sends a request (logs, metrics, spans: the path its signal's) under `idempotencyKey` and
  /// returns what the answer means to the outbox.
  ///
  /// A body over ``OTLPExporterConfiguration/maximumBodyBytes`` is not sent: the answer is
  /// `.http(status: 413)`, as a receiver would refuse it (a permanent failure; the batch is
  /// parked).
  ///
  /// - Throws: ``ForwardingError`` when the request cannot be built (an invalid key, a
  ///   compression failure); an outbox counts a thrown error as a network error.
  public func export<Request: OTLPExportRequest>(_ request: Request, idempotencyKey: String)
    async throws(ForwardingError) -> DeliveryResponse
  {
    try await send(request, signal: Request.signal, idempotencyKey: idempotencyKey)
  }

  /// Sends an encoded body under `idempotencyKey` and returns what the answer means to the
  /// outbox.
  ///
  /// - Throws: ``ForwardingError/Code/invalidArgument`` for a key that cannot be a header
  ///   value; an outbox counts a thrown error as a network error.
  public func export(_ body: EncodedBody, idempotencyKey: String) async throws(ForwardingError)
    -> DeliveryResponse
  {
    try await export(body, idempotencyKey: idempotencyKey, within: nil)
  }

  /// Sends an encoded body under `idempotencyKey`, its exchange bounded by `within` when that
  /// is shorter than ``OTLPExporterConfiguration/timeout`` (what is left of a bounded drain).
  func export(_ body: EncodedBody, idempotencyKey: String, within limit: Duration?)
    async throws(ForwardingError) -> DeliveryResponse
  {
    var request = try self.request(for: body, idempotencyKey: idempotencyKey)
    if let limit { request.timeout = min(request.timeout, max(limit, .milliseconds(1))) }
    do {
      return DeliveryResponse(otlp: try await transport.send(request), signal: body.signal)
    } catch {
      return DeliveryResponse(otlp: error)
    }
  }

  private func send(_ message: some OTLPMessage, signal: OTLPSignal, idempotencyKey: String)
    async throws(ForwardingError) -> DeliveryResponse
  {
    let body = Result { () throws(ForwardingError) in try encode(message, signal: signal) }
    return try await export(body, idempotencyKey: idempotencyKey)
  }

  /// Sends a body that was encoded ahead, or answers for it when encoding failed: a body over
  /// ``OTLPExporterConfiguration/maximumBodyBytes`` is not sent, its answer is
  /// `.http(status: 413)`; another encoding error is thrown.
  func export(
    _ body: Result<EncodedBody, ForwardingError>, idempotencyKey: String,
    within limit: Duration? = nil
  ) async throws(ForwardingError) -> DeliveryResponse {
    switch body {
    case .success(let body):
      return try await export(body, idempotencyKey: idempotencyKey, within: limit)
    case .failure(let error) where error.code == .tooLarge:
      return .http(status: 413)
    case .failure(let error):
      throw error
    }
  }
}
