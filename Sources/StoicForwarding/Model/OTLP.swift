/// The OpenTelemetry Protocol's messages for logs and metrics, as Swift values: the subset Stoic
/// sends and its example collector receives, shaped and named as in `opentelemetry-proto`
/// (`logs/v1/logs.proto`, `metrics/v1/metrics.proto`, `common/v1/common.proto`,
/// `resource/v1/resource.proto`, `collector/*/v1/*_service.proto`).
///
/// Each request and response encodes to and decodes from both OTLP/HTTP encodings: binary
/// protobuf (`application/x-protobuf`) and OTLP's JSON mapping (`application/json`). Fields
/// outside the subset are skipped when decoding.
public enum OTLP {}

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

  /// One attribute: `opentelemetry.proto.common.v1.KeyValue`.
  public struct KeyValue: Sendable, Hashable {
    /// The attribute's name.
    public var key: String
    /// Its value (``AnyValue/empty`` when absent).
    public var value: AnyValue

    /// Creates an attribute.
    public init(_ key: String, _ value: AnyValue) {
      self.key = key
      self.value = value
    }
  }

  /// What produced the telemetry (`service.name`, `service.instance.id`, …):
  /// `opentelemetry.proto.resource.v1.Resource`.
  public struct Resource: Sendable, Hashable {
    /// The resource's attributes.
    public var attributes: [KeyValue]
    /// How many attributes the producer dropped.
    public var droppedAttributesCount: UInt32

    /// Creates a resource.
    public init(attributes: [KeyValue] = [], droppedAttributesCount: UInt32 = 0) {
      self.attributes = attributes
      self.droppedAttributesCount = droppedAttributesCount
    }

    /// The string value of the first attribute named `key`, if it is a string.
    public func stringAttribute(_ key: String) -> String? {
      for attribute in attributes where attribute.key == key {
        if case .string(let value) = attribute.value { return value }
        return nil
      }
      return nil
    }
  }

  /// The library or component that emitted the telemetry:
  /// `opentelemetry.proto.common.v1.InstrumentationScope`.
  public struct InstrumentationScope: Sendable, Hashable {
    /// The scope's name (for example a logger's label).
    public var name: String
    /// Its version.
    public var version: String
    /// Its attributes.
    public var attributes: [KeyValue]
    /// How many attributes were dropped.
    public var droppedAttributesCount: UInt32

    /// Creates a scope.
    public init(
      name: String = "", version: String = "", attributes: [KeyValue] = [],
      droppedAttributesCount: UInt32 = 0
    ) {
      self.name = name
      self.version = version
      self.attributes = attributes
      self.droppedAttributesCount = droppedAttributesCount
    }
  }

  /// The body of an OTLP/HTTP failure (4xx, 5xx): `google.rpc.Status`, whose `message` says
  /// what was wrong. (`details` is skipped when decoding.)
  public struct Status: Sendable, Hashable {
    /// A `google.rpc.Code` (OTLP does not use it; 3 is INVALID_ARGUMENT, 14 UNAVAILABLE).
    public var code: Int32
    /// A message for a developer.
    public var message: String

    /// Creates a status.
    public init(code: Int32 = 0, message: String = "") {
      self.code = code
      self.message = message
    }
  }
}
