/// OTLP's `LogRecord` (`opentelemetry/proto/logs/v1/logs.proto`), field by field: its number,
/// its wire type and its key in proto3's JSON mapping.
///
/// The one table every writer and reader of a log record names its fields from: the model's
/// codecs (`OTLPLogsProtobuf`, `OTLPLogsJSON`), the fast writers from the spool's bytes
/// (``LogRecordMapping``), and the example collector's fast readers (`OTLPLogsJSONTranscoder`,
/// `OTLPLogsProtobufSummary`, in `StoicCollector`). Each reader finds a field here (``init(number:wireType:)``,
/// ``init(jsonKey:)``) and switches over all of them, so a field added to the table is a
/// compile error in every reader until it reads it; a test holds every writer to the table.
///
/// | field | number | wire type | JSON key |
/// | --- | --- | --- | --- |
/// | `time_unix_nano` | 1 | fixed64 | `timeUnixNano` |
/// | `severity_number` | 2 | varint (enum) | `severityNumber` |
/// | `severity_text` | 3 | length-delimited | `severityText` |
/// | `body` | 5 | length-delimited (AnyValue) | `body` |
/// | `attributes` | 6 | length-delimited (repeated KeyValue) | `attributes` |
/// | `dropped_attributes_count` | 7 | varint | `droppedAttributesCount` |
/// | `flags` | 8 | fixed32 | `flags` |
/// | `trace_id` | 9 | length-delimited (bytes; hex in JSON) | `traceId` |
/// | `span_id` | 10 | length-delimited (bytes; hex in JSON) | `spanId` |
/// | `observed_time_unix_nano` | 11 | fixed64 | `observedTimeUnixNano` |
///
/// Field 4 is reserved by the `.proto`; `event_name` (12, development) is not read or written.
package enum OTLPLogRecordField: Int, CaseIterable, Sendable {
  case timeUnixNano = 1
  case severityNumber = 2
  case severityText = 3
  case body = 5
  case attributes = 6
  case droppedAttributesCount = 7
  case flags = 8
  case traceId = 9
  case spanId = 10
  case observedTimeUnixNano = 11

  /// The field number.
  @inline(__always)
  package var number: Int { rawValue }

  /// The wire type the field is written with, and the only one it is read with.
  package var wireType: ProtobufWireType {
    switch self {
    case .timeUnixNano, .observedTimeUnixNano: .fixed64
    case .severityNumber, .droppedAttributesCount: .varint
    case .flags: .fixed32
    case .severityText, .body, .attributes, .traceId, .spanId: .lengthDelimited
    }
  }

  /// The key in proto3's JSON mapping (lower camel case).
  package var jsonKey: StaticString {
    switch self {
    case .timeUnixNano: "timeUnixNano"
    case .severityNumber: "severityNumber"
    case .severityText: "severityText"
    case .body: "body"
    case .attributes: "attributes"
    case .droppedAttributesCount: "droppedAttributesCount"
    case .flags: "flags"
    case .traceId: "traceId"
    case .spanId: "spanId"
    case .observedTimeUnixNano: "observedTimeUnixNano"
    }
  }

  /// The field a protobuf reader met, or nil for one it skips: an unknown number, or a known
  /// one with another wire type.
  @inline(__always)
  package init?(number: Int, wireType: ProtobufWireType) {
    guard let field = Self(rawValue: number), field.wireType == wireType else { return nil }
    self = field
  }

  /// The field of a JSON key, or nil for one a reader skips.
  package init?(jsonKey key: UnsafeBufferPointer<UInt8>) {
    // By length first: no two keys of the same length but the 12-byte pair.
    let candidate: Self? =
      switch key.count {
      case 4: .body
      case 5: .flags
      case 6: .spanId
      case 7: .traceId
      case 10: .attributes
      case 12: key.first == UInt8(ascii: "t") ? .timeUnixNano : .severityText
      case 14: .severityNumber
      case 20: .observedTimeUnixNano
      case 22: .droppedAttributesCount
      default: nil
      }
    guard let candidate, key.isKey(candidate.jsonKey) else { return nil }
    self = candidate
  }

  /// The field of a JSON key, or nil for one a reader skips.
  package init?(jsonKey key: String) {
    var key = key
    guard let field = key.withUTF8({ Self(jsonKey: $0) }) else { return nil }
    self = field
  }

}
