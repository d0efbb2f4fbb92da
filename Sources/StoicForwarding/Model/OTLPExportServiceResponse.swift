/// One signal's `Export…ServiceResponse` (``OTLP/ExportLogsServiceResponse``,
/// ``OTLP/ExportMetricsServiceResponse``, ``OTLP/ExportTraceServiceResponse``): a full success,
/// or a partial success saying how many of the request's items (log records, data points,
/// spans) the receiver rejected, and why.
///
/// Every signal's response has the same shape and field numbers (`partial_success` 1; in it the
/// rejected count 1, `error_message` 2) and only the JSON key of the rejected count its own
/// (``rejectedCountKey``), so both encodings are written and read once, here, for every signal;
/// a conformer names its count and builds itself from one.
public protocol OTLPExportServiceResponse: OTLPMessage {
  /// The partial success's rejected count and message, or `nil` for a full success.
  var rejection: (count: Int64, message: String)? { get }
  /// A response holding the partial success `rejection`, or a full success for `nil`.
  init(rejection: (count: Int64, message: String)?)
  /// The JSON key of the partial success's rejected count (`rejectedLogRecords`,
  /// `rejectedDataPoints`, `rejectedSpans`).
  static var rejectedCountKey: StaticString { get }
}

extension OTLPExportServiceResponse {
  /// Appends the binary protobuf encoding to `buffer`.
  public func encodeProtobuf(into buffer: inout [UInt8]) {
    ProtobufWriter.append(to: &buffer) {
      OTLPCommonProtobuf.writeResponse(rejection, to: &$0)
    }
  }

  /// Decodes binary protobuf.
  ///
  /// - Throws: ``ForwardingError`` when the bytes are not this message.
  public init(protobuf bytes: [UInt8]) throws(ForwardingError) {
    var reader = ProtobufReader(bytes)
    self.init(rejection: try OTLPCommonProtobuf.readResponse(&reader))
  }

  /// Appends the OTLP JSON encoding to `buffer`.
  public func encodeJSON(into buffer: inout [UInt8]) {
    JSONWriter.append(to: &buffer) {
      OTLPCommonJSON.writeResponse(rejection, rejectedKey: Self.rejectedCountKey, to: &$0)
    }
  }

  /// Decodes OTLP JSON.
  ///
  /// - Throws: ``ForwardingError`` when the bytes are not this message in JSON.
  public init(json bytes: [UInt8]) throws(ForwardingError) {
    let key = "\(Self.rejectedCountKey)"
    self.init(
      rejection: try OTLPCommonJSON.decodeDocument(bytes) { (reader) throws(ForwardingError) in
        try OTLPCommonJSON.readResponse(&reader, rejectedKey: key)
      })
  }
}
