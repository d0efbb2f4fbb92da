/// The protobuf encoding of `opentelemetry/proto/common/v1/common.proto` (AnyValue,
/// ArrayValue, KeyValueList, KeyValue, InstrumentationScope) and
/// `opentelemetry/proto/resource/v1/resource.proto` (Resource), with the field numbers of
/// those files.
///
/// Writers append a message's fields (the enclosing ``ProtobufWriter/message(_:_:)`` frames
/// them); readers merge the fields of one message into a value, as protobuf merges a singular
/// message field that occurs twice.
enum OTLPCommonProtobuf {
  /// `AnyValue`: a oneof.
  enum AnyValueField {
    static let stringValue = 1
    static let boolValue = 2
    static let intValue = 3
    static let doubleValue = 4
    static let arrayValue = 5
    static let kvlistValue = 6
    static let bytesValue = 7
  }

  /// `ArrayValue`.
  enum ArrayValueField {
    static let values = 1
  }

  /// `KeyValueList`.
  enum KeyValueListField {
    static let values = 1
  }

  /// `KeyValue`.
  enum KeyValueField {
    static let key = 1
    static let value = 2
  }

  /// `InstrumentationScope`.
  enum InstrumentationScopeField {
    static let name = 1
    static let version = 2
    static let attributes = 3
    static let droppedAttributesCount = 4
  }

  /// `Resource`.
  enum ResourceField {
    static let attributes = 1
    static let droppedAttributesCount = 2
  }

  // MARK: Writing

  /// Writes the fields of an `AnyValue` (nothing for ``OTLP/AnyValue/empty``). A oneof member
  /// is written even when it holds its default.
  static func write(_ value: OTLP.AnyValue, to writer: inout ProtobufWriter) {
    switch value {
    case .empty:
      break
    case .string(let string):
      writer.presentString(AnyValueField.stringValue, string)
    case .bool(let bool):
      writer.presentVarint(AnyValueField.boolValue, bool ? 1 : 0)
    case .int(let int):
      writer.presentVarint(AnyValueField.intValue, UInt64(bitPattern: int))
    case .double(let double):
      writer.presentFixed64(AnyValueField.doubleValue, double.bitPattern)
    case .array(let values):
      let array = writer.beginMessage(AnyValueField.arrayValue)
      for element in values {
        let slot = writer.beginMessage(ArrayValueField.values)
        write(element, to: &writer)
        writer.endMessage(slot)
      }
      writer.endMessage(array)
    case .kvlist(let pairs):
      let list = writer.beginMessage(AnyValueField.kvlistValue)
      writeAttributes(KeyValueListField.values, pairs, to: &writer)
      writer.endMessage(list)
    case .bytes(let bytes):
      writer.presentBytes(AnyValueField.bytesValue, bytes)
    }
  }

  /// Writes `attributes` as repeated `KeyValue` field `field`.
  static func writeAttributes(
    _ field: Int, _ attributes: [OTLP.KeyValue], to writer: inout ProtobufWriter
  ) {
    attributes.withUnsafeBufferPointer { pairs in
      for index in pairs.indices {
        let pair = writer.beginMessage(field)
        writer.string(KeyValueField.key, pairs[index].key)
        if case .empty = pairs[index].value {
        } else {
          let value = writer.beginMessage(KeyValueField.value)
          write(pairs[index].value, to: &writer)
          writer.endMessage(value)
        }
        writer.endMessage(pair)
      }
    }
  }

  /// Writes the fields of an `InstrumentationScope`.
  static func write(_ scope: OTLP.InstrumentationScope, to writer: inout ProtobufWriter) {
    writer.string(InstrumentationScopeField.name, scope.name)
    writer.string(InstrumentationScopeField.version, scope.version)
    writeAttributes(InstrumentationScopeField.attributes, scope.attributes, to: &writer)
    writer.uint64(
      InstrumentationScopeField.droppedAttributesCount, UInt64(scope.droppedAttributesCount))
  }

  /// Writes the fields of a `Resource`.
  static func write(_ resource: OTLP.Resource, to writer: inout ProtobufWriter) {
    writeAttributes(ResourceField.attributes, resource.attributes, to: &writer)
    writer.uint64(ResourceField.droppedAttributesCount, UInt64(resource.droppedAttributesCount))
  }

  // MARK: Reading

  /// Merges the fields of an `AnyValue` into `value`: a later member of the oneof replaces an
  /// earlier one, and a second array or kvlist extends the first.
  static func merge(_ value: inout OTLP.AnyValue, from reader: inout ProtobufReader)
    throws(ForwardingError)
  {
    while let (number, wireType) = try reader.nextField() {
      switch (number, wireType) {
      case (AnyValueField.stringValue, .lengthDelimited):
        value = .string(try reader.string())
      case (AnyValueField.boolValue, .varint):
        value = .bool(try reader.varint() != 0)
      case (AnyValueField.intValue, .varint):
        value = .int(Int64(bitPattern: try reader.varint()))
      case (AnyValueField.doubleValue, .fixed64):
        value = .double(Double(bitPattern: try reader.fixed64()))
      case (AnyValueField.arrayValue, .lengthDelimited):
        var elements: [OTLP.AnyValue] = []
        if case .array(let earlier) = value {
          elements = earlier
          value = .empty
        }
        var array = try reader.message()
        while let (field, type) = try array.nextField() {
          guard field == ArrayValueField.values, type == .lengthDelimited else {
            try array.skip(type, field: field)
            continue
          }
          var element = OTLP.AnyValue.empty
          var elementReader = try array.message()
          try merge(&element, from: &elementReader)
          elements.append(element)
        }
        value = .array(elements)
      case (AnyValueField.kvlistValue, .lengthDelimited):
        var pairs: [OTLP.KeyValue] = []
        if case .kvlist(let earlier) = value {
          pairs = earlier
          value = .empty
        }
        var list = try reader.message()
        while let (field, type) = try list.nextField() {
          if field == KeyValueListField.values, type == .lengthDelimited {
            pairs.append(try readKeyValue(&list))
          } else {
            try list.skip(type, field: field)
          }
        }
        value = .kvlist(pairs)
      case (AnyValueField.bytesValue, .lengthDelimited):
        value = .bytes(try reader.bytes())
      default:
        try reader.skip(wireType, field: number)
      }
    }
  }

  /// Reads one length-delimited `KeyValue` (the tag was just read).
  static func readKeyValue(_ reader: inout ProtobufReader) throws(ForwardingError)
    -> OTLP.KeyValue
  {
    var pair = OTLP.KeyValue("", .empty)
    var message = try reader.message()
    while let (number, wireType) = try message.nextField() {
      switch (number, wireType) {
      case (KeyValueField.key, .lengthDelimited):
        pair.key = try message.string()
      case (KeyValueField.value, .lengthDelimited):
        var valueReader = try message.message()
        try merge(&pair.value, from: &valueReader)
      default:
        try message.skip(wireType, field: number)
      }
    }
    return pair
  }

  /// Merges the fields of an `InstrumentationScope` (the tag was just read) into `scope`.
  static func merge(_ scope: inout OTLP.InstrumentationScope?, from reader: inout ProtobufReader)
    throws(ForwardingError)
  {
    var value = scope ?? OTLP.InstrumentationScope()
    var message = try reader.message()
    while let (number, wireType) = try message.nextField() {
      switch (number, wireType) {
      case (InstrumentationScopeField.name, .lengthDelimited):
        value.name = try message.string()
      case (InstrumentationScopeField.version, .lengthDelimited):
        value.version = try message.string()
      case (InstrumentationScopeField.attributes, .lengthDelimited):
        value.attributes.append(try readKeyValue(&message))
      case (InstrumentationScopeField.droppedAttributesCount, .varint):
        value.droppedAttributesCount = UInt32(truncatingIfNeeded: try message.varint())
      default:
        try message.skip(wireType, field: number)
      }
    }
    scope = value
  }

  /// Merges the fields of a `Resource` (the tag was just read) into `resource`.
  static func merge(_ resource: inout OTLP.Resource?, from reader: inout ProtobufReader)
    throws(ForwardingError)
  {
    var value = resource ?? OTLP.Resource()
    var message = try reader.message()
    while let (number, wireType) = try message.nextField() {
      switch (number, wireType) {
      case (ResourceField.attributes, .lengthDelimited):
        value.attributes.append(try readKeyValue(&message))
      case (ResourceField.droppedAttributesCount, .varint):
        value.droppedAttributesCount = UInt32(truncatingIfNeeded: try message.varint())
      default:
        try message.skip(wireType, field: number)
      }
    }
    resource = value
  }

  // MARK: Export responses

  /// Writes the partial success of an `Export…ServiceResponse` (logs and metrics share its
  /// shape; the caller names the field numbers), or nothing for a full success.
  static func writePartialSuccess(
    _ partial: (rejected: Int64, message: String)?, field: Int, rejectedField: Int,
    messageField: Int, to writer: inout ProtobufWriter
  ) {
    guard let partial else { return }
    writer.message(field) { message in
      message.int64(rejectedField, partial.rejected)
      message.string(messageField, partial.message)
    }
  }

  /// Reads an `Export…ServiceResponse`: its partial success (merged, if sent twice), or `nil`.
  static func readPartialSuccess(
    _ reader: inout ProtobufReader, field: Int, rejectedField: Int, messageField: Int
  ) throws(ForwardingError) -> (rejected: Int64, message: String)? {
    var partial: (rejected: Int64, message: String)? = nil
    while let (number, wireType) = try reader.nextField() {
      guard number == field, wireType == .lengthDelimited else {
        try reader.skip(wireType, field: number)
        continue
      }
      var merged = partial ?? (0, "")
      var message = try reader.message()
      while let (inner, type) = try message.nextField() {
        switch (inner, type) {
        case (rejectedField, .varint): merged.rejected = Int64(bitPattern: try message.varint())
        case (messageField, .lengthDelimited): merged.message = try message.string()
        default: try message.skip(type, field: inner)
        }
      }
      partial = merged
    }
    return partial
  }
}
