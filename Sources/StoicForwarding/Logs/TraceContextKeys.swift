/// The metadata keys a log record's trace context is read from, so that the forwarder fills
/// the OTLP record's `trace_id`, `span_id` and `flags` instead of sending them as attributes
/// (OpenTelemetry's logs data model, "Trace Context Fields":
/// <https://opentelemetry.io/docs/specs/otel/logs/data-model/#trace-context-fields>).
///
/// The default, ``swiftOTel``, is what swift-otel's `Logger.MetadataProvider.otel` writes:
/// `trace_id` (32 hex digits), `span_id` (16 hex digits) and `trace_flags` (the W3C flags
/// byte in decimal, `1` for sampled). A trace id and a span id are moved only together and
/// only when both are well formed (the right length, hex, not all zero); the flags only with
/// them and only when they are a number in 0…255. Anything else stays a plain attribute, so a
/// malformed value is still seen.
public struct TraceContextKeys: Sendable, Hashable {
  /// The key of the trace id.
  public var traceID: String
  /// The key of the span id.
  public var spanID: String
  /// The key of the trace flags.
  public var traceFlags: String

  /// Keys of your own.
  public init(traceID: String, spanID: String, traceFlags: String) {
    self.traceID = traceID
    self.spanID = spanID
    self.traceFlags = traceFlags
  }

  /// swift-otel's defaults: `trace_id`, `span_id`, `trace_flags`.
  public static let swiftOTel = TraceContextKeys(
    traceID: "trace_id", spanID: "span_id", traceFlags: "trace_flags")

  /// A record's trace context, found under these keys.
  struct Found {
    var traceID: [UInt8]
    var spanID: [UInt8]
    /// The flags, when they were well formed (else their key stays an attribute).
    var flags: UInt32?
  }

  /// The trace context `value(key)` gives (a flat string value's UTF-8, or `nil`), when the
  /// trace id and the span id are both well formed.
  func find<Value: Collection<UInt8>>(_ value: (String) -> Value?) -> Found? {
    guard let traceText = value(traceID), let trace = Self.identifier(traceText, bytes: 16),
      let spanText = value(spanID), let span = Self.identifier(spanText, bytes: 8)
    else { return nil }
    var flags: UInt32?
    if let text = value(traceFlags) { flags = Self.flags(text) }
    return Found(traceID: trace, spanID: span, flags: flags)
  }

  /// Whether `key` is one that `found` moved out of the attributes.
  func moved(_ key: some Collection<UInt8>, _ found: Found) -> Bool {
    key.elementsEqual(traceID.utf8) || key.elementsEqual(spanID.utf8)
      || (found.flags != nil && key.elementsEqual(traceFlags.utf8))
  }

  /// The bytes of `count` bytes' worth of hex digits in `text`, or `nil` when it is not that
  /// (or is all zero, which W3C Trace Context calls invalid).
  static func identifier(_ text: some Collection<UInt8>, bytes count: Int) -> [UInt8]? {
    guard text.count == count * 2 else { return nil }
    var result = [UInt8]()
    result.reserveCapacity(count)
    var high: UInt8?
    for byte in text {
      guard let digit = HexDigit.value(byte) else { return nil }
      if let first = high {
        result.append(first << 4 | digit)
        high = nil
      } else {
        high = digit
      }
    }
    return result.contains { $0 != 0 } ? result : nil
  }

  /// The flags byte written in decimal (`1`), or `nil`.
  static func flags(_ text: some Collection<UInt8>) -> UInt32? {
    guard (1...3).contains(text.count) else { return nil }
    var value: UInt32 = 0
    for byte in text {
      guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
      value = value * 10 + UInt32(byte - UInt8(ascii: "0"))
    }
    return value <= 255 ? value : nil
  }
}
