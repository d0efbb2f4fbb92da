public import StoicTelemetry

/// A span as the span spool keeps it (`SpanEnd`), as OTLP sends it.
public enum SpanMapping {
  /// `end` (the whole span) as an OTLP span: ids as bytes (no parent: empty), the kind and
  /// status codes as OTLP numbers (a status description only with an error; no status when
  /// unset and without one), times clamped to 0 and up, attributes sorted by key.
  public static func otlp(_ end: SpanEnd) -> OTLP.Span {
    let start = end.start
    return OTLP.Span(
      traceId: start.traceID.bytes, spanId: start.spanID.bytes, traceState: start.traceState,
      parentSpanId: start.parentSpanID.isValid ? start.parentSpanID.bytes : [],
      flags: UInt32(start.traceFlags), name: start.name, kind: Int32(start.kind.rawValue),
      startTimeUnixNano: UInt64(clamping: start.startTimeNanoseconds),
      endTimeUnixNano: UInt64(clamping: end.endTimeNanoseconds),
      attributes: attributes(end.attributes),
      droppedAttributesCount: end.droppedAttributesCount,
      events: end.events.map { event in
        OTLP.Span.Event(
          timeUnixNano: UInt64(clamping: event.timeNanoseconds), name: event.name,
          attributes: attributes(event.attributes),
          droppedAttributesCount: event.droppedAttributesCount)
      },
      droppedEventsCount: end.droppedEventsCount,
      links: end.links.map { link in
        OTLP.Span.Link(
          traceId: link.traceID.bytes, spanId: link.spanID.bytes, traceState: link.traceState,
          attributes: attributes(link.attributes),
          droppedAttributesCount: link.droppedAttributesCount, flags: UInt32(link.traceFlags))
      },
      droppedLinksCount: end.droppedLinksCount,
      status: end.status.code == .unset && end.status.message.isEmpty
        ? nil
        : OTLP.Span.Status(
          message: end.status.code == .error ? end.status.message : "",
          code: Int32(end.status.code.rawValue)))
  }

  /// Attributes sorted by key, so that the same span always encodes to the same bytes.
  public static func attributes(_ attributes: SpanRecordAttributes) -> [OTLP.KeyValue] {
    attributes.sorted { $0.key < $1.key }.map { OTLP.KeyValue($0.key, value($0.value)) }
  }

  /// A span attribute's value as OTLP's `AnyValue`.
  public static func value(_ value: SpanAttributeValue) -> OTLP.AnyValue {
    switch value {
    case .string(let text): .string(text)
    case .bool(let flag): .bool(flag)
    case .int(let number): .int(number)
    case .double(let number): .double(number)
    case .array(let values): .array(values.map(Self.value))
    }
  }
}
