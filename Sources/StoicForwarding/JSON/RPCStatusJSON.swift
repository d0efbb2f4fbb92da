/// The JSON encoding of `google.rpc.Status` (`{"code":3,"message":"…"}`), the body of an
/// OTLP/HTTP failure answered to a JSON request (`details` is skipped when reading).
enum RPCStatusJSON {
  static func write(_ status: OTLP.Status, to writer: inout JSONWriter) {
    writer.object { object in
      OTLPCommonJSON.writeNumber("code", Int64(status.code), to: &object)
      OTLPCommonJSON.writeString("message", status.message, to: &object)
    }
  }

  static func read(_ reader: inout JSONReader) throws(ForwardingError) -> OTLP.Status {
    var status = OTLP.Status()
    try OTLPCommonJSON.readObject(&reader) { (key, reader) throws(ForwardingError) in
      switch key {
      case "code": status.code = try OTLPCommonJSON.readInt32(&reader)
      case "message": status.message = try reader.readString()
      default: return false
      }
      return true
    }
    return status
  }
}

extension OTLP.Status {
  /// Appends the JSON encoding to `buffer`.
  public func encodeJSON(into buffer: inout [UInt8]) {
    JSONWriter.append(to: &buffer) { RPCStatusJSON.write(self, to: &$0) }
  }

  /// Decodes JSON.
  public init(json bytes: [UInt8]) throws(ForwardingError) {
    self = try OTLPCommonJSON.decodeDocument(bytes, RPCStatusJSON.read)
  }
}
