/// The value of a span's attribute (or of its events' and links'), as OTLP's `AnyValue` has
/// the ones a tracer sets: a string, a boolean, a 64-bit integer, a double, or an array of
/// them.
public enum SpanAttributeValue: Sendable, Hashable {
  /// A string.
  case string(String)
  /// A boolean.
  case bool(Bool)
  /// A signed 64-bit integer.
  case int(Int64)
  /// A double.
  case double(Double)
  /// An array of values (OTLP's `ArrayValue`).
  case array([SpanAttributeValue])
}

/// A span's attributes (or an event's, or a link's): keys to values.
public typealias SpanRecordAttributes = [String: SpanAttributeValue]
