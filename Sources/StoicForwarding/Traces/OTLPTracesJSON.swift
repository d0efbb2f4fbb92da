/// OTLP's JSON encoding of the traces signal's `Span` (Span.Event, Span.Link, Status), with
/// the keys of proto3's JSON mapping; trace and span ids in hexadecimal, as OTLP/JSON
/// requires. The request's nesting, the response and the shared rules are in
/// ``OTLPCommonJSON``.
enum OTLPTracesJSON {
  // MARK: Writing

  static func write(_ span: OTLP.Span, to writer: inout JSONWriter) {
    writer.object { object in
      writeHex("traceId", span.traceId, to: &object)
      writeHex("spanId", span.spanId, to: &object)
      OTLPCommonJSON.writeString("traceState", span.traceState, to: &object)
      writeHex("parentSpanId", span.parentSpanId, to: &object)
      OTLPCommonJSON.writeNumber("flags", Int64(span.flags), to: &object)
      OTLPCommonJSON.writeString("name", span.name, to: &object)
      OTLPCommonJSON.writeNumber("kind", Int64(span.kind), to: &object)
      OTLPCommonJSON.writeQuoted("startTimeUnixNano", span.startTimeUnixNano, to: &object)
      OTLPCommonJSON.writeQuoted("endTimeUnixNano", span.endTimeUnixNano, to: &object)
      OTLPCommonJSON.writeAttributesField(span.attributes, to: &object)
      OTLPCommonJSON.writeNumber(
        "droppedAttributesCount", Int64(span.droppedAttributesCount), to: &object)
      if !span.events.isEmpty {
        object.key("events")
        object.array { array in
          for event in span.events {
            array.object { item in
              OTLPCommonJSON.writeQuoted("timeUnixNano", event.timeUnixNano, to: &item)
              OTLPCommonJSON.writeString("name", event.name, to: &item)
              OTLPCommonJSON.writeAttributesField(event.attributes, to: &item)
              OTLPCommonJSON.writeNumber(
                "droppedAttributesCount", Int64(event.droppedAttributesCount), to: &item)
            }
          }
        }
      }
      OTLPCommonJSON.writeNumber("droppedEventsCount", Int64(span.droppedEventsCount), to: &object)
      if !span.links.isEmpty {
        object.key("links")
        object.array { array in
          for link in span.links {
            array.object { item in
              writeHex("traceId", link.traceId, to: &item)
              writeHex("spanId", link.spanId, to: &item)
              OTLPCommonJSON.writeString("traceState", link.traceState, to: &item)
              OTLPCommonJSON.writeAttributesField(link.attributes, to: &item)
              OTLPCommonJSON.writeNumber(
                "droppedAttributesCount", Int64(link.droppedAttributesCount), to: &item)
              OTLPCommonJSON.writeNumber("flags", Int64(link.flags), to: &item)
            }
          }
        }
      }
      OTLPCommonJSON.writeNumber("droppedLinksCount", Int64(span.droppedLinksCount), to: &object)
      if let status = span.status {
        object.key("status")
        object.object { item in
          OTLPCommonJSON.writeString("message", status.message, to: &item)
          OTLPCommonJSON.writeNumber("code", Int64(status.code), to: &item)
        }
      }
    }
  }

  /// Writes `"name":"hex"` unless the bytes are empty.
  static func writeHex(_ key: StaticString, _ value: [UInt8], to writer: inout JSONWriter) {
    guard !value.isEmpty else { return }
    writer.key(key)
    writer.hex(value)
  }

  // MARK: Reading

  static func readSpan(_ reader: inout JSONReader) throws(ForwardingError) -> OTLP.Span {
    var span = OTLP.Span()
    try OTLPCommonJSON.readObject(&reader) { (key, reader) throws(ForwardingError) in
      switch key {
      case "traceId": span.traceId = try OTLPCommonJSON.readHex(&reader)
      case "spanId": span.spanId = try OTLPCommonJSON.readHex(&reader)
      case "traceState": span.traceState = try reader.readString()
      case "parentSpanId": span.parentSpanId = try OTLPCommonJSON.readHex(&reader)
      case "flags": span.flags = try OTLPCommonJSON.readUInt32(&reader)
      case "name": span.name = try reader.readString()
      case "kind": span.kind = try OTLPCommonJSON.readInt32(&reader)
      case "startTimeUnixNano": span.startTimeUnixNano = try OTLPCommonJSON.readUInt64(&reader)
      case "endTimeUnixNano": span.endTimeUnixNano = try OTLPCommonJSON.readUInt64(&reader)
      case "attributes": span.attributes = try OTLPCommonJSON.readAttributes(&reader)
      case "droppedAttributesCount":
        span.droppedAttributesCount = try OTLPCommonJSON.readUInt32(&reader)
      case "events":
        try OTLPCommonJSON.readArray(&reader) { (reader) throws(ForwardingError) in
          span.events.append(try readEvent(&reader))
        }
      case "droppedEventsCount": span.droppedEventsCount = try OTLPCommonJSON.readUInt32(&reader)
      case "links":
        try OTLPCommonJSON.readArray(&reader) { (reader) throws(ForwardingError) in
          span.links.append(try readLink(&reader))
        }
      case "droppedLinksCount": span.droppedLinksCount = try OTLPCommonJSON.readUInt32(&reader)
      case "status": span.status = try readStatus(&reader)
      default: return false
      }
      return true
    }
    return span
  }

  static func readEvent(_ reader: inout JSONReader) throws(ForwardingError) -> OTLP.Span.Event {
    var event = OTLP.Span.Event()
    try OTLPCommonJSON.readObject(&reader) { (key, reader) throws(ForwardingError) in
      switch key {
      case "timeUnixNano": event.timeUnixNano = try OTLPCommonJSON.readUInt64(&reader)
      case "name": event.name = try reader.readString()
      case "attributes": event.attributes = try OTLPCommonJSON.readAttributes(&reader)
      case "droppedAttributesCount":
        event.droppedAttributesCount = try OTLPCommonJSON.readUInt32(&reader)
      default: return false
      }
      return true
    }
    return event
  }

  static func readLink(_ reader: inout JSONReader) throws(ForwardingError) -> OTLP.Span.Link {
    var link = OTLP.Span.Link()
    try OTLPCommonJSON.readObject(&reader) { (key, reader) throws(ForwardingError) in
      switch key {
      case "traceId": link.traceId = try OTLPCommonJSON.readHex(&reader)
      case "spanId": link.spanId = try OTLPCommonJSON.readHex(&reader)
      case "traceState": link.traceState = try reader.readString()
      case "attributes": link.attributes = try OTLPCommonJSON.readAttributes(&reader)
      case "droppedAttributesCount":
        link.droppedAttributesCount = try OTLPCommonJSON.readUInt32(&reader)
      case "flags": link.flags = try OTLPCommonJSON.readUInt32(&reader)
      default: return false
      }
      return true
    }
    return link
  }

  static func readStatus(_ reader: inout JSONReader) throws(ForwardingError) -> OTLP.Span.Status {
    var status = OTLP.Span.Status()
    try OTLPCommonJSON.readObject(&reader) { (key, reader) throws(ForwardingError) in
      switch key {
      case "message": status.message = try reader.readString()
      case "code": status.code = try OTLPCommonJSON.readInt32(&reader)
      default: return false
      }
      return true
    }
    return status
  }

}
