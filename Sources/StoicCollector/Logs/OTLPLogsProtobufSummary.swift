internal import StoicForwarding

/// A binary protobuf `ExportLogsServiceRequest` checked and counted without being built: for a
/// receiver that stores a request as it came and only needs to know that it is one, how many
/// log records it holds, and for which resources.
///
/// The walk reads exactly what ``OTLPLogsProtobuf/read(_:)`` reads, with the same
/// ``ProtobufReader`` calls in the same order, so it refuses exactly the bytes the decoder
/// refuses (with the same error) and nests to the same depth; where the decoder builds a
/// `String`, an array or an `AnyValue`, the walk only checks the bytes (UTF-8 for strings).
/// Resources and scopes, a few per request, are decoded in full. The fuzz target `otlp`
/// checks on every input that the two agree.
enum OTLPLogsProtobufSummary {
  /// One `ResourceLogs` of a request.
  struct ResourceCount: Equatable {
    /// Its resource, decoded (merged as the decoder merges a repeated field).
    var resource: OTLP.Resource?
    /// Its log records, over all its scopes.
    var logRecords: Int
  }

  /// Checks `bytes` as ``OTLPLogsProtobuf/read(_:)`` would decode them.
  ///
  /// - Returns: Each `ResourceLogs` in order, with its resource and record count.
  /// - Throws: The error the decoder throws for the same bytes.
  static func summarize(_ bytes: [UInt8]) throws(ForwardingError) -> [ResourceCount] {
    var reader = ProtobufReader(bytes)
    var resources: [ResourceCount] = []
    while let (number, wireType) = try reader.nextField() {
      if number == OTLPCommonProtobuf.RequestField.resourceGroups,
        wireType == .lengthDelimited
      {
        var message = try reader.message()
        resources.append(try resourceLogs(&message))
      } else {
        try reader.skip(wireType, field: number)
      }
    }
    return resources
  }

  private typealias Field = OTLPLogsProtobuf
  private typealias Nesting = OTLPCommonProtobuf

  private static func resourceLogs(_ reader: inout ProtobufReader) throws(ForwardingError)
    -> ResourceCount
  {
    var count = ResourceCount(resource: nil, logRecords: 0)
    while let (number, wireType) = try reader.nextField() {
      switch (number, wireType) {
      case (Nesting.ResourceGroupField.resource, .lengthDelimited):
        try OTLPCommonProtobuf.merge(&count.resource, from: &reader)
      case (Nesting.ResourceGroupField.scopeGroups, .lengthDelimited):
        var message = try reader.message()
        count.logRecords += try scopeLogs(&message)
      case (Nesting.ResourceGroupField.schemaUrl, .lengthDelimited):
        try checkString(&reader)
      default:
        try reader.skip(wireType, field: number)
      }
    }
    return count
  }

  /// Checks a `ScopeLogs`; returns its number of log records.
  private static func scopeLogs(_ reader: inout ProtobufReader) throws(ForwardingError) -> Int {
    var records = 0
    var scope: OTLP.InstrumentationScope?
    while let (number, wireType) = try reader.nextField() {
      switch (number, wireType) {
      case (Nesting.ScopeGroupField.scope, .lengthDelimited):
        try OTLPCommonProtobuf.merge(&scope, from: &reader)
      case (Nesting.ScopeGroupField.items, .lengthDelimited):
        var message = try reader.message()
        try logRecord(&message)
        records += 1
      case (Nesting.ScopeGroupField.schemaUrl, .lengthDelimited):
        try checkString(&reader)
      default:
        try reader.skip(wireType, field: number)
      }
    }
    return records
  }

  private static func logRecord(_ reader: inout ProtobufReader) throws(ForwardingError) {
    while let (number, wireType) = try reader.nextField() {
      guard let field = OTLPLogRecordField(number: number, wireType: wireType) else {
        try reader.skip(wireType, field: number)
        continue
      }
      switch field {
      case .timeUnixNano, .observedTimeUnixNano: _ = try reader.fixed64()
      case .severityNumber, .droppedAttributesCount: _ = try reader.varint()
      case .severityText: try checkString(&reader)
      case .body:
        var message = try reader.message()
        try anyValue(&message)
      case .attributes: try keyValue(&reader)
      case .flags: _ = try reader.fixed32()
      case .traceId, .spanId: _ = try reader.lengthDelimited()
      }
    }
  }

  private typealias Common = OTLPCommonProtobuf

  /// Checks the fields of an `AnyValue` as ``OTLPCommonProtobuf/merge(_:from:)`` reads them.
  private static func anyValue(_ reader: inout ProtobufReader) throws(ForwardingError) {
    while let (number, wireType) = try reader.nextField() {
      switch (number, wireType) {
      case (Common.AnyValueField.stringValue, .lengthDelimited):
        try checkString(&reader)
      case (Common.AnyValueField.boolValue, .varint), (Common.AnyValueField.intValue, .varint):
        _ = try reader.varint()
      case (Common.AnyValueField.doubleValue, .fixed64):
        _ = try reader.fixed64()
      case (Common.AnyValueField.arrayValue, .lengthDelimited):
        var array = try reader.message()
        while let (field, type) = try array.nextField() {
          guard field == Common.ArrayValueField.values, type == .lengthDelimited else {
            try array.skip(type, field: field)
            continue
          }
          var element = try array.message()
          try anyValue(&element)
        }
      case (Common.AnyValueField.kvlistValue, .lengthDelimited):
        var list = try reader.message()
        while let (field, type) = try list.nextField() {
          if field == Common.KeyValueListField.values, type == .lengthDelimited {
            try keyValue(&list)
          } else {
            try list.skip(type, field: field)
          }
        }
      case (Common.AnyValueField.bytesValue, .lengthDelimited):
        _ = try reader.lengthDelimited()
      default:
        try reader.skip(wireType, field: number)
      }
    }
  }

  /// Checks one length-delimited `KeyValue` (the tag was just read), as
  /// ``OTLPCommonProtobuf/readKeyValue(_:)`` reads it.
  private static func keyValue(_ reader: inout ProtobufReader) throws(ForwardingError) {
    var message = try reader.message()
    while let (number, wireType) = try message.nextField() {
      switch (number, wireType) {
      case (Common.KeyValueField.key, .lengthDelimited):
        try checkString(&message)
      case (Common.KeyValueField.value, .lengthDelimited):
        var value = try message.message()
        try anyValue(&value)
      default:
        try message.skip(wireType, field: number)
      }
    }
  }

  private static func checkString(_ reader: inout ProtobufReader) throws(ForwardingError) {
    try reader.checkString()
  }
}
