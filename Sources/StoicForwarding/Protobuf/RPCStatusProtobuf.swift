/// The protobuf encoding of `google/rpc/status.proto`'s `Status`, the body of an OTLP/HTTP
/// failure, with the field numbers of that file (`details`, repeated `Any` = 3, is skipped).
enum RPCStatusProtobuf {
  /// `google.rpc.Status`.
  enum StatusField {
    static let code = 1  // int32
    static let message = 2
  }

  static func write(_ status: OTLP.Status, to writer: inout ProtobufWriter) {
    writer.int32(StatusField.code, status.code)
    writer.string(StatusField.message, status.message)
  }

  static func read(_ reader: inout ProtobufReader) throws(ForwardingError) -> OTLP.Status {
    var status = OTLP.Status()
    while let (number, wireType) = try reader.nextField() {
      switch (number, wireType) {
      case (StatusField.code, .varint):
        status.code = Int32(truncatingIfNeeded: try reader.varint())
      case (StatusField.message, .lengthDelimited):
        status.message = try reader.string()
      default:
        try reader.skip(wireType, field: number)
      }
    }
    return status
  }
}

extension OTLP.Status: OTLPMessage {
  /// Appends the binary protobuf encoding to `buffer`.
  public func encodeProtobuf(into buffer: inout [UInt8]) {
    ProtobufWriter.append(to: &buffer) { RPCStatusProtobuf.write(self, to: &$0) }
  }

  /// Decodes binary protobuf.
  public init(protobuf bytes: [UInt8]) throws(ForwardingError) {
    var reader = ProtobufReader(bytes)
    self = try RPCStatusProtobuf.read(&reader)
  }
}
