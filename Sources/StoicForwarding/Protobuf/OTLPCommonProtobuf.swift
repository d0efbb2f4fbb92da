/// The protobuf encoding of `opentelemetry/proto/common/v1/common.proto` (AnyValue,
/// ArrayValue, KeyValueList, KeyValue, InstrumentationScope) and
/// `opentelemetry/proto/resource/v1/resource.proto` (Resource), with the field numbers of
/// those files.
///
/// Writers append a message's fields (the enclosing ``ProtobufWriter/message(_:_:)`` frames
/// them); readers merge the fields of one message into a value, as protobuf merges a singular
/// message field that occurs twice.
package enum OTLPCommonProtobuf {
  /// `AnyValue`: a oneof.
  package enum AnyValueField {
    package static let stringValue = 1
    package static let boolValue = 2
    package static let intValue = 3
    package static let doubleValue = 4
    package static let arrayValue = 5
    package static let kvlistValue = 6
    package static let bytesValue = 7
  }

  /// `ArrayValue`.
  package enum ArrayValueField {
    package static let values = 1
  }

  /// `KeyValueList`.
  package enum KeyValueListField {
    package static let values = 1
  }

  /// `KeyValue`.
  package enum KeyValueField {
    package static let key = 1
    package static let value = 2
  }

  /// `InstrumentationScope`.
  package enum InstrumentationScopeField {
    package static let name = 1
    package static let version = 2
    package static let attributes = 3
    package static let droppedAttributesCount = 4
  }

  /// `Resource`.
  package enum ResourceField {
    package static let attributes = 1
    package static let droppedAttributesCount = 2
  }

  // MARK: Writing

  /// Writes the fields of an `AnyValue` (nothing for ``OTLP/AnyValue/empty``). A oneof member
  /// is written even when it holds its default.
  package static func write(_ value: OTLP.AnyValue, to writer: inout ProtobufWriter) {
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
  package static func writeAttributes(
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
  package static func write(_ scope: OTLP.InstrumentationScope, to writer: inout ProtobufWriter) {
    writer.string(InstrumentationScopeField.name, scope.name)
    writer.string(InstrumentationScopeField.version, scope.version)
    writeAttributes(InstrumentationScopeField.attributes, scope.attributes, to: &writer)
    writer.uint64(
      InstrumentationScopeField.droppedAttributesCount, UInt64(scope.droppedAttributesCount))
  }

  /// Writes the fields of a `Resource`.
  package static func write(_ resource: OTLP.Resource, to writer: inout ProtobufWriter) {
    writeAttributes(ResourceField.attributes, resource.attributes, to: &writer)
    writer.uint64(ResourceField.droppedAttributesCount, UInt64(resource.droppedAttributesCount))
  }

  // MARK: Reading

  /// Merges the fields of an `AnyValue` into `value`: a later member of the oneof replaces an
  /// earlier one, and a second array or kvlist extends the first.
  package static func merge(_ value: inout OTLP.AnyValue, from reader: inout ProtobufReader)
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
  package static func readKeyValue(_ reader: inout ProtobufReader) throws(ForwardingError)
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
  package static func merge(
    _ scope: inout OTLP.InstrumentationScope?, from reader: inout ProtobufReader
  )
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
  package static func merge(_ resource: inout OTLP.Resource?, from reader: inout ProtobufReader)
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

  /// `Export…ServiceResponse`: the same numbers in every signal.
  package enum ResponseField {
    package static let partialSuccess = 1  // Export…PartialSuccess
  }

  /// `Export…PartialSuccess`: the same numbers in every signal.
  package enum PartialSuccessField {
    package static let rejectedCount = 1  // int64 (rejected_log_records, rejected_data_points, …)
    package static let errorMessage = 2
  }

  /// Writes an `Export…ServiceResponse`: its partial success, or nothing for a full success.
  package static func writeResponse(
    _ partial: (count: Int64, message: String)?, to writer: inout ProtobufWriter
  ) {
    guard let partial else { return }
    writer.message(ResponseField.partialSuccess) { message in
      message.int64(PartialSuccessField.rejectedCount, partial.count)
      message.string(PartialSuccessField.errorMessage, partial.message)
    }
  }

  /// Reads an `Export…ServiceResponse`: its partial success (merged, if sent twice), or `nil`.
  package static func readResponse(_ reader: inout ProtobufReader) throws(ForwardingError)
    -> (count: Int64, message: String)?
  {
    var partial: (count: Int64, message: String)? = nil
    while let (number, wireType) = try reader.nextField() {
      guard number == ResponseField.partialSuccess, wireType == .lengthDelimited else {
        try reader.skip(wireType, field: number)
        continue
      }
      var merged = partial ?? (0, "")
      var message = try reader.message()
      while let (inner, type) = try message.nextField() {
        switch (inner, type) {
        case (PartialSuccessField.rejectedCount, .varint):
          merged.count = Int64(bitPattern: try message.varint())
        case (PartialSuccessField.errorMessage, .lengthDelimited):
          merged.message = try message.string()
        default: try message.skip(type, field: inner)
        }
      }
      partial = merged
    }
    return partial
  }

  // MARK: Resource → Scope → item

  /// `Export…ServiceRequest`: the same number in every signal.
  package enum RequestField {
    package static let resourceGroups = 1  // repeated Resource… (resource_logs, resource_metrics)
  }

  /// `Resource…` (`ResourceLogs`, `ResourceMetrics`): the same numbers in every signal.
  package enum ResourceGroupField {
    package static let resource = 1
    package static let scopeGroups = 2  // repeated Scope… (scope_logs, scope_metrics)
    package static let schemaUrl = 3
  }

  /// `Scope…` (`ScopeLogs`, `ScopeMetrics`): the same numbers in every signal.
  package enum ScopeGroupField {
    package static let scope = 1
    package static let items = 2  // repeated item (log_records, metrics)
    package static let schemaUrl = 3
  }

  /// Writes an `Export…ServiceRequest` of `groups`, each item by `item` (its fields: the
  /// nesting frames it).
  static func writeRequest<Group: OTLPResourceGroup>(
    _ groups: [Group], to writer: inout ProtobufWriter,
    item: (Group.ScopeGroup.Item, inout ProtobufWriter) -> Void
  ) {
    for group in groups {
      writer.message(RequestField.resourceGroups) { message in
        if let resource = group.resource {
          message.message(ResourceGroupField.resource) { write(resource, to: &$0) }
        }
        for scopeGroup in group.scopeGroups {
          message.message(ResourceGroupField.scopeGroups) {
            writeScopeGroup(scopeGroup, to: &$0, item: item)
          }
        }
        message.string(ResourceGroupField.schemaUrl, group.schemaUrl)
      }
    }
  }

  private static func writeScopeGroup<Scope: OTLPScopeGroup>(
    _ scopeGroup: Scope, to writer: inout ProtobufWriter,
    item: (Scope.Item, inout ProtobufWriter) -> Void
  ) {
    if let scope = scopeGroup.scope {
      writer.message(ScopeGroupField.scope) { write(scope, to: &$0) }
    }
    scopeGroup.items.withUnsafeBufferPointer { items in
      for index in items.indices {
        let slot = writer.beginMessage(ScopeGroupField.items)
        item(items[index], &writer)
        writer.endMessage(slot)
      }
    }
    writer.string(ScopeGroupField.schemaUrl, scopeGroup.schemaUrl)
  }

  /// Writes a request of one `Resource…` with one `Scope…`, whose items `items` writes (each
  /// as a whole field: ``ScopeGroupField/items``, its length, its fields): the same bytes as
  /// ``writeRequest(_:to:item:)`` writes for the request holding those items.
  package static func writeRequest(
    resource: OTLP.Resource, scope: OTLP.InstrumentationScope,
    to writer: inout ProtobufWriter, items: (inout ProtobufWriter) -> Void
  ) {
    writer.message(RequestField.resourceGroups) { message in
      message.message(ResourceGroupField.resource) { write(resource, to: &$0) }
      message.message(ResourceGroupField.scopeGroups) { scopeGroup in
        scopeGroup.message(ScopeGroupField.scope) { write(scope, to: &$0) }
        items(&scopeGroup)
      }
    }
  }

  /// Reads the groups of an `Export…ServiceRequest`, each item by `item` (from its message).
  static func readRequest<Group: OTLPResourceGroup>(
    _ reader: inout ProtobufReader,
    item: (inout ProtobufReader) throws(ForwardingError) -> Group.ScopeGroup.Item
  ) throws(ForwardingError) -> [Group] {
    var groups: [Group] = []
    while let (number, wireType) = try reader.nextField() {
      if number == RequestField.resourceGroups, wireType == .lengthDelimited {
        var message = try reader.message()
        groups.append(try readResourceGroup(&message, item: item))
      } else {
        try reader.skip(wireType, field: number)
      }
    }
    return groups
  }

  private static func readResourceGroup<Group: OTLPResourceGroup>(
    _ reader: inout ProtobufReader,
    item: (inout ProtobufReader) throws(ForwardingError) -> Group.ScopeGroup.Item
  ) throws(ForwardingError) -> Group {
    var group = Group()
    while let (number, wireType) = try reader.nextField() {
      switch (number, wireType) {
      case (ResourceGroupField.resource, .lengthDelimited):
        try merge(&group.resource, from: &reader)
      case (ResourceGroupField.scopeGroups, .lengthDelimited):
        var message = try reader.message()
        group.scopeGroups.append(try readScopeGroup(&message, item: item))
      case (ResourceGroupField.schemaUrl, .lengthDelimited):
        group.schemaUrl = try reader.string()
      default:
        try reader.skip(wireType, field: number)
      }
    }
    return group
  }

  private static func readScopeGroup<Scope: OTLPScopeGroup>(
    _ reader: inout ProtobufReader,
    item: (inout ProtobufReader) throws(ForwardingError) -> Scope.Item
  ) throws(ForwardingError) -> Scope {
    var scopeGroup = Scope()
    while let (number, wireType) = try reader.nextField() {
      switch (number, wireType) {
      case (ScopeGroupField.scope, .lengthDelimited):
        try merge(&scopeGroup.scope, from: &reader)
      case (ScopeGroupField.items, .lengthDelimited):
        var message = try reader.message()
        scopeGroup.items.append(try item(&message))
      case (ScopeGroupField.schemaUrl, .lengthDelimited):
        scopeGroup.schemaUrl = try reader.string()
      default:
        try reader.skip(wireType, field: number)
      }
    }
    return scopeGroup
  }
}
