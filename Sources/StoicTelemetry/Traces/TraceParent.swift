/// A W3C Trace Context `traceparent` header: the trace, the parent span and the trace flags a
/// request carries from one service to the next
/// (`00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01`).
///
/// Parsed as the W3C Trace Context recommendation says: version `00` is exactly 55
/// characters; a higher version (not `ff`) may be longer, its extra fields after a `-`
/// ignored; ids and flags are lowercase hexadecimal; an all-zero trace or span id is invalid.
/// Anything else is no header (`nil`): the receiver starts a new trace.
public struct TraceParent: Sendable, Hashable {
  /// The trace.
  public var traceID: TraceID
  /// The caller's span: the parent of the span the receiver starts.
  public var spanID: SpanID
  /// The trace flags (bit 0: sampled).
  public var traceFlags: UInt8

  /// The W3C name of the header: `traceparent`.
  public static let headerName = "traceparent"
  /// The W3C name of the vendor state's header: `tracestate`.
  public static let stateHeaderName = "tracestate"
  /// The longest `tracestate` passed on, in bytes (W3C: at least 512 must be propagated); a
  /// longer one is dropped.
  public static let stateLimit = 512

  /// Creates a header's fields.
  public init(traceID: TraceID, spanID: SpanID, traceFlags: UInt8) {
    self.traceID = traceID
    self.spanID = spanID
    self.traceFlags = traceFlags
  }

  /// Whether the sampled flag is set.
  public var isSampled: Bool { traceFlags & 1 == 1 }

  /// The header's value, version `00`.
  public var header: String {
    "00-\(traceID)-\(spanID)-" + String(HexDigits.text(of: UInt64(traceFlags)).suffix(2))
  }

  /// The fields of a `traceparent` value, or `nil` when it is not a valid one.
  public init?(header: some StringProtocol) {
    let bytes = Array(header.utf8)
    guard bytes.count >= 55, bytes[2] == UInt8(ascii: "-"), bytes[35] == UInt8(ascii: "-"),
      bytes[52] == UInt8(ascii: "-"), Self.isLowercaseHex(bytes[0..<2]),
      Self.isLowercaseHex(bytes[3..<35]), Self.isLowercaseHex(bytes[36..<52]),
      Self.isLowercaseHex(bytes[53..<55]),
      let version = HexDigits.value(of: bytes[0..<2]), version != 0xFF,
      let high = HexDigits.value(of: bytes[3..<19]), let low = HexDigits.value(of: bytes[19..<35]),
      let span = HexDigits.value(of: bytes[36..<52]),
      let flags = HexDigits.value(of: bytes[53..<55])
    else { return nil }
    if version == 0 {
      guard bytes.count == 55 else { return nil }
    } else if bytes.count > 55 {
      guard bytes[55] == UInt8(ascii: "-") else { return nil }
    }
    let traceID = TraceID(high: high, low: low)
    let spanID = SpanID(span)
    guard traceID.isValid, spanID.isValid else { return nil }
    self.init(traceID: traceID, spanID: spanID, traceFlags: UInt8(truncatingIfNeeded: flags))
  }

  private static func isLowercaseHex(_ bytes: ArraySlice<UInt8>) -> Bool {
    bytes.allSatisfy {
      (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
        || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0)
    }
  }
}
