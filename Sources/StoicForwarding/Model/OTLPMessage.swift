/// A top-level OTLP/HTTP body: a request, a response or a failure status, in either encoding.
///
/// Encoding appends to a buffer the caller owns, so one buffer serves every request (clear it
/// with `removeAll(keepingCapacity: true)` between uses). Decoding takes untrusted bytes: it
/// never traps, limits nesting, and throws ``ForwardingError`` for anything it cannot read.
/// Fields outside Stoic's subset are skipped, as OTLP requires of receivers.
public protocol OTLPMessage: Sendable, Hashable {
  /// Appends the binary protobuf encoding to `buffer`.
  func encodeProtobuf(into buffer: inout [UInt8])
  /// Decodes binary protobuf.
  ///
  /// - Throws: ``ForwardingError`` when the bytes are not this message.
  init(protobuf bytes: [UInt8]) throws(ForwardingError)
  /// Appends the OTLP JSON encoding to `buffer`.
  func encodeJSON(into buffer: inout [UInt8])
  /// Decodes OTLP JSON.
  ///
  /// - Throws: ``ForwardingError`` when the bytes are not this message in JSON.
  init(json bytes: [UInt8]) throws(ForwardingError)
}

extension OTLPMessage {
  /// Appends the message in `encoding` to `buffer`.
  public func encode(as encoding: OTLPEncoding, into buffer: inout [UInt8]) {
    switch encoding {
    case .protobuf: encodeProtobuf(into: &buffer)
    case .json: encodeJSON(into: &buffer)
    }
  }

  /// The message in `encoding`, in a new buffer.
  public func encoded(as encoding: OTLPEncoding) -> [UInt8] {
    var buffer: [UInt8] = []
    encode(as: encoding, into: &buffer)
    return buffer
  }

  /// Decodes `bytes` in `encoding`.
  ///
  /// - Throws: ``ForwardingError`` when the bytes are not this message.
  public init(decoding bytes: [UInt8], as encoding: OTLPEncoding) throws(ForwardingError) {
    switch encoding {
    case .protobuf: try self.init(protobuf: bytes)
    case .json: try self.init(json: bytes)
    }
  }
}
