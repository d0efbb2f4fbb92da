extension OTLP {
  /// A value of an attribute or a log body: `opentelemetry.proto.common.v1.AnyValue`.
  public indirect enum AnyValue: Sendable, Hashable {
    /// No value set (OTLP's empty `AnyValue`, JSON `{}`).
    case empty
    /// `stringValue`.
    case string(String)
    /// `boolValue`.
    case bool(Bool)
    /// `intValue`: a signed 64-bit integer (a decimal string in JSON).
    case int(Int64)
    /// `doubleValue`.
    case double(Double)
    /// `arrayValue`: values in order, of any kind.
    case array([AnyValue])
    /// `kvlistValue`: nested key–value pairs.
    case kvlist([KeyValue])
    /// `bytesValue` (base64 in JSON).
    case bytes([UInt8])
  }
}
