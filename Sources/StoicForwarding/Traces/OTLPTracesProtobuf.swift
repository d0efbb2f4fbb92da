/// The protobuf encoding of `opentelemetry/proto/trace/v1/trace.proto`'s `Span` (Span.Event,
/// Span.Link, Status), with the field numbers of that file. Fields are written in field-number
/// order, as protoc's encoders write them. The request's nesting (`ExportTraceServiceRequest`,
/// `ResourceSpans`, `ScopeSpans`) and the response are every signal's, in
/// ``OTLPCommonProtobuf``.
enum OTLPTracesProtobuf {
  /// `Span`.
  enum SpanField {
    static let traceId = 1  // bytes
    static let spanId = 2  // bytes
    static let traceState = 3
    static let parentSpanId = 4  // bytes
    static let name = 5
    static let kind = 6  // enum SpanKind
    static let startTimeUnixNano = 7  // fixed64
    static let endTimeUnixNano = 8  // fixed64
    static let attributes = 9  // repeated KeyValue
    static let droppedAttributesCount = 10
    static let events = 11  // repeated Event
    static let droppedEventsCount = 12
    static let links = 13  // repeated Link
    static let droppedLinksCount = 14
    static let status = 15  // Status
    static let flags = 16  // fixed32
  }

  /// `Span.Event`.
  enum EventField {
    static let timeUnixNano = 1  // fixed64
    static let name = 2
    static let attributes = 3
    static let droppedAttributesCount = 4
  }

  /// `Span.Link`.
  enum LinkField {
    static let traceId = 1
    static let spanId = 2
    static let traceState = 3
    static let attributes = 4
    static let droppedAttributesCount = 5
    static let flags = 6  // fixed32
  }

  /// `Status` (field 1 is reserved).
  enum StatusField {
    static let message = 2
    static let code = 3  // enum StatusCode
  }

  // MARK: Writing

  static func write(_ span: OTLP.Span, to writer: inout ProtobufWriter) {
    writer.bytes(SpanField.traceId, span.traceId)
    writer.bytes(SpanField.spanId, span.spanId)
    writer.string(SpanField.traceState, span.traceState)
    writer.bytes(SpanField.parentSpanId, span.parentSpanId)
    writer.string(SpanField.name, span.name)
    writer.int32(SpanField.kind, span.kind)
    writer.fixed64(SpanField.startTimeUnixNano, span.startTimeUnixNano)
    writer.fixed64(SpanField.endTimeUnixNano, span.endTimeUnixNano)
    OTLPCommonProtobuf.writeAttributes(SpanField.attributes, span.attributes, to: &writer)
    writer.uint64(SpanField.droppedAttributesCount, UInt64(span.droppedAttributesCount))
    for event in span.events {
      let slot = writer.beginMessage(SpanField.events)
      writer.fixed64(EventField.timeUnixNano, event.timeUnixNano)
      writer.string(EventField.name, event.name)
      OTLPCommonProtobuf.writeAttributes(EventField.attributes, event.attributes, to: &writer)
      writer.uint64(EventField.droppedAttributesCount, UInt64(event.droppedAttributesCount))
      writer.endMessage(slot)
    }
    writer.uint64(SpanField.droppedEventsCount, UInt64(span.droppedEventsCount))
    for link in span.links {
      let slot = writer.beginMessage(SpanField.links)
      writer.bytes(LinkField.traceId, link.traceId)
      writer.bytes(LinkField.spanId, link.spanId)
      writer.string(LinkField.traceState, link.traceState)
      OTLPCommonProtobuf.writeAttributes(LinkField.attributes, link.attributes, to: &writer)
      writer.uint64(LinkField.droppedAttributesCount, UInt64(link.droppedAttributesCount))
      writer.fixed32(LinkField.flags, link.flags)
      writer.endMessage(slot)
    }
    writer.uint64(SpanField.droppedLinksCount, UInt64(span.droppedLinksCount))
    if let status = span.status {
      let slot = writer.beginMessage(SpanField.status)
      writer.string(StatusField.message, status.message)
      writer.int32(StatusField.code, status.code)
      writer.endMessage(slot)
    }
    writer.fixed32(SpanField.flags, span.flags)
  }

  // MARK: Reading

  static func readSpan(_ reader: inout ProtobufReader) throws(ForwardingError) -> OTLP.Span {
    var span = OTLP.Span()
    while let (number, wireType) = try reader.nextField() {
      switch (number, wireType) {
      case (SpanField.traceId, .lengthDelimited): span.traceId = try reader.bytes()
      case (SpanField.spanId, .lengthDelimited): span.spanId = try reader.bytes()
      case (SpanField.traceState, .lengthDelimited): span.traceState = try reader.string()
      case (SpanField.parentSpanId, .lengthDelimited): span.parentSpanId = try reader.bytes()
      case (SpanField.name, .lengthDelimited): span.name = try reader.string()
      case (SpanField.kind, .varint): span.kind = Int32(truncatingIfNeeded: try reader.varint())
      case (SpanField.startTimeUnixNano, .fixed64): span.startTimeUnixNano = try reader.fixed64()
      case (SpanField.endTimeUnixNano, .fixed64): span.endTimeUnixNano = try reader.fixed64()
      case (SpanField.attributes, .lengthDelimited):
        span.attributes.append(try OTLPCommonProtobuf.readKeyValue(&reader))
      case (SpanField.droppedAttributesCount, .varint):
        span.droppedAttributesCount = UInt32(truncatingIfNeeded: try reader.varint())
      case (SpanField.events, .lengthDelimited):
        var message = try reader.message()
        span.events.append(try readEvent(&message))
      case (SpanField.droppedEventsCount, .varint):
        span.droppedEventsCount = UInt32(truncatingIfNeeded: try reader.varint())
      case (SpanField.links, .lengthDelimited):
        var message = try reader.message()
        span.links.append(try readLink(&message))
      case (SpanField.droppedLinksCount, .varint):
        span.droppedLinksCount = UInt32(truncatingIfNeeded: try reader.varint())
      case (SpanField.status, .lengthDelimited):
        var message = try reader.message()
        span.status = try readStatus(&message)
      case (SpanField.flags, .fixed32): span.flags = try reader.fixed32()
      default: try reader.skip(wireType, field: number)
      }
    }
    return span
  }

  static func readEvent(_ reader: inout ProtobufReader) throws(ForwardingError)
    -> OTLP.Span.Event
  {
    var event = OTLP.Span.Event()
    while let (number, wireType) = try reader.nextField() {
      switch (number, wireType) {
      case (EventField.timeUnixNano, .fixed64): event.timeUnixNano = try reader.fixed64()
      case (EventField.name, .lengthDelimited): event.name = try reader.string()
      case (EventField.attributes, .lengthDelimited):
        event.attributes.append(try OTLPCommonProtobuf.readKeyValue(&reader))
      case (EventField.droppedAttributesCount, .varint):
        event.droppedAttributesCount = UInt32(truncatingIfNeeded: try reader.varint())
      default: try reader.skip(wireType, field: number)
      }
    }
    return event
  }

  static func readLink(_ reader: inout ProtobufReader) throws(ForwardingError) -> OTLP.Span.Link {
    var link = OTLP.Span.Link()
    while let (number, wireType) = try reader.nextField() {
      switch (number, wireType) {
      case (LinkField.traceId, .lengthDelimited): link.traceId = try reader.bytes()
      case (LinkField.spanId, .lengthDelimited): link.spanId = try reader.bytes()
      case (LinkField.traceState, .lengthDelimited): link.traceState = try reader.string()
      case (LinkField.attributes, .lengthDelimited):
        link.attributes.append(try OTLPCommonProtobuf.readKeyValue(&reader))
      case (LinkField.droppedAttributesCount, .varint):
        link.droppedAttributesCount = UInt32(truncatingIfNeeded: try reader.varint())
      case (LinkField.flags, .fixed32): link.flags = try reader.fixed32()
      default: try reader.skip(wireType, field: number)
      }
    }
    return link
  }

  static func readStatus(_ reader: inout ProtobufReader) throws(ForwardingError) -> OTLP.Span.Status
  {
    var status = OTLP.Span.Status()
    while let (number, wireType) = try reader.nextField() {
      switch (number, wireType) {
      case (StatusField.message, .lengthDelimited): status.message = try reader.string()
      case (StatusField.code, .varint):
        status.code = Int32(truncatingIfNeeded: try reader.varint())
      default: try reader.skip(wireType, field: number)
      }
    }
    return status
  }

}
