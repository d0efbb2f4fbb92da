/// OTLP's JSON encoding of `common.proto` (AnyValue, ArrayValue, KeyValueList, KeyValue,
/// InstrumentationScope) and `resource.proto` (Resource), and the scalar rules every OTLP JSON
/// message shares: proto3's JSON mapping with lowerCamelCase keys, 64-bit integers as decimal
/// strings (either strings or numbers read), enums as integers, `bytes` as base64 except
/// `traceId`/`spanId` (hex), `null` meaning the field's default, unknown keys skipped.
///
/// Writers omit fields that hold their default, as protobuf does, except oneof members.
package enum OTLPCommonJSON {
  // MARK: Writing

  /// Writes an `AnyValue` object (`{}` for ``OTLP/AnyValue/empty``).
  static func write(_ value: OTLP.AnyValue, to writer: inout JSONWriter) {
    writer.object { object in
      switch value {
      case .empty:
        break
      case .string(let string):
        object.key("stringValue")
        object.string(string)
      case .bool(let bool):
        object.key("boolValue")
        object.bool(bool)
      case .int(let int):
        object.key("intValue")
        object.quoted(int)
      case .double(let double):
        object.key("doubleValue")
        object.double(double)
      case .array(let values):
        object.key("arrayValue")
        object.object { array in
          guard !values.isEmpty else { return }
          array.key("values")
          array.array { elements in
            for element in values { write(element, to: &elements) }
          }
        }
      case .kvlist(let pairs):
        object.key("kvlistValue")
        object.object { list in
          guard !pairs.isEmpty else { return }
          list.key("values")
          writeAttributes(pairs, to: &list)
        }
      case .bytes(let bytes):
        object.key("bytesValue")
        object.base64(bytes)
      }
    }
  }

  /// Writes an array of `KeyValue` objects.
  static func writeAttributes(_ attributes: [OTLP.KeyValue], to writer: inout JSONWriter) {
    writer.array { array in
      for attribute in attributes {
        array.object { pair in
          pair.key("key")
          pair.string(attribute.key)
          if case .empty = attribute.value { return }
          pair.key("value")
          write(attribute.value, to: &pair)
        }
      }
    }
  }

  /// Writes `"attributes":[…]` when there are any.
  static func writeAttributesField(_ attributes: [OTLP.KeyValue], to writer: inout JSONWriter) {
    guard !attributes.isEmpty else { return }
    writer.key("attributes")
    writeAttributes(attributes, to: &writer)
  }

  /// Writes `"name":"value"` unless the value is empty.
  static func writeString(_ key: StaticString, _ value: String, to writer: inout JSONWriter) {
    guard !value.isEmpty else { return }
    writer.key(key)
    writer.string(value)
  }

  /// Writes `"name":value` (a bare number) unless it is zero.
  static func writeNumber(_ key: StaticString, _ value: Int64, to writer: inout JSONWriter) {
    guard value != 0 else { return }
    writer.key(key)
    writer.number(value)
  }

  /// Writes `"name":"value"` (a 64-bit integer as a string) unless it is zero.
  static func writeQuoted(_ key: StaticString, _ value: UInt64, to writer: inout JSONWriter) {
    guard value != 0 else { return }
    writer.key(key)
    writer.quoted(value)
  }

  /// Writes an `InstrumentationScope` object.
  static func write(_ scope: OTLP.InstrumentationScope, to writer: inout JSONWriter) {
    writer.object { object in
      writeString("name", scope.name, to: &object)
      writeString("version", scope.version, to: &object)
      writeAttributesField(scope.attributes, to: &object)
      writeNumber("droppedAttributesCount", Int64(scope.droppedAttributesCount), to: &object)
    }
  }

  /// Writes a `Resource` object.
  static func write(_ resource: OTLP.Resource, to writer: inout JSONWriter) {
    writer.object { object in
      writeAttributesField(resource.attributes, to: &object)
      writeNumber("droppedAttributesCount", Int64(resource.droppedAttributesCount), to: &object)
    }
  }

  /// Writes an `Export…ServiceResponse` object: `{}` for a full success, else its
  /// `partialSuccess` with the rejected count under `rejectedKey`.
  static func writeResponse(
    _ partial: (count: Int64, message: String)?, rejectedKey: StaticString,
    to writer: inout JSONWriter
  ) {
    writer.object { object in
      guard let partial else { return }
      object.key("partialSuccess")
      object.object { partialObject in
        if partial.count != 0 {
          partialObject.key(rejectedKey)
          partialObject.quoted(partial.count)
        }
        writeString("errorMessage", partial.message, to: &partialObject)
      }
    }
  }

  /// Reads an `Export…ServiceResponse` object: its partial success, or `nil`.
  package static func readResponse(_ reader: inout JSONReader, rejectedKey: String)
    throws(ForwardingError)
    -> (count: Int64, message: String)?
  {
    var partial: (count: Int64, message: String)? = nil
    try readObject(&reader) { (key, reader) throws(ForwardingError) in
      guard key == "partialSuccess" else { return false }
      var read: (count: Int64, message: String) = (0, "")
      try readObject(&reader) { (key, reader) throws(ForwardingError) in
        switch key {
        case rejectedKey: read.count = try readInt64(&reader)
        case "errorMessage": read.message = try reader.readString()
        default: return false
        }
        return true
      }
      partial = read
      return true
    }
    return partial
  }

  // MARK: Reading messages

  /// Reads the members of an object, calling `member` with each key whose value is not
  /// `null` (a `null` is the field's default: nothing to do). `member` reads the value, or
  /// returns `false` to have it skipped.
  package static func readObject(
    _ reader: inout JSONReader,
    _ member: (String, inout JSONReader) throws(ForwardingError) -> Bool
  ) throws(ForwardingError) {
    try reader.beginObject()
    while let key = try reader.nextKey() {
      if try reader.readNull() { continue }
      if try !member(key, &reader) { try reader.skipValue() }
    }
  }

  /// Reads an array, calling `element` for each element.
  package static func readArray(
    _ reader: inout JSONReader, _ element: (inout JSONReader) throws(ForwardingError) -> Void
  ) throws(ForwardingError) {
    try reader.beginArray()
    while try reader.nextElement() { try element(&reader) }
  }

  /// Reads an `AnyValue` object.
  package static func readAnyValue(_ reader: inout JSONReader) throws(ForwardingError)
    -> OTLP.AnyValue
  {
    var value = OTLP.AnyValue.empty
    try readObject(&reader) { (key, reader) throws(ForwardingError) in
      switch key {
      case "stringValue": value = .string(try reader.readString())
      case "boolValue": value = .bool(try reader.readBool())
      case "intValue": value = .int(try readInt64(&reader))
      case "doubleValue": value = .double(try readDouble(&reader))
      case "arrayValue":
        var elements: [OTLP.AnyValue] = []
        try readObject(&reader) { (key, reader) throws(ForwardingError) in
          guard key == "values" else { return false }
          try readArray(&reader) { (reader) throws(ForwardingError) in
            elements.append(try readAnyValue(&reader))
          }
          return true
        }
        value = .array(elements)
      case "kvlistValue":
        var pairs: [OTLP.KeyValue] = []
        try readObject(&reader) { (key, reader) throws(ForwardingError) in
          guard key == "values" else { return false }
          pairs = try readAttributes(&reader)
          return true
        }
        value = .kvlist(pairs)
      case "bytesValue": value = .bytes(try readBase64(&reader))
      default: return false
      }
      return true
    }
    return value
  }

  /// Reads an array of `KeyValue` objects.
  package static func readAttributes(_ reader: inout JSONReader) throws(ForwardingError)
    -> [OTLP.KeyValue]
  {
    var attributes: [OTLP.KeyValue] = []
    try readArray(&reader) { (reader) throws(ForwardingError) in
      var pair = OTLP.KeyValue("", .empty)
      try readObject(&reader) { (key, reader) throws(ForwardingError) in
        switch key {
        case "key": pair.key = try reader.readString()
        case "value": pair.value = try readAnyValue(&reader)
        default: return false
        }
        return true
      }
      attributes.append(pair)
    }
    return attributes
  }

  /// Reads an `InstrumentationScope` object.
  package static func readScope(_ reader: inout JSONReader) throws(ForwardingError)
    -> OTLP.InstrumentationScope
  {
    var scope = OTLP.InstrumentationScope()
    try readObject(&reader) { (key, reader) throws(ForwardingError) in
      switch key {
      case "name": scope.name = try reader.readString()
      case "version": scope.version = try reader.readString()
      case "attributes": scope.attributes = try readAttributes(&reader)
      case "droppedAttributesCount": scope.droppedAttributesCount = try readUInt32(&reader)
      default: return false
      }
      return true
    }
    return scope
  }

  /// Reads a `Resource` object.
  package static func readResource(_ reader: inout JSONReader) throws(ForwardingError)
    -> OTLP.Resource
  {
    var resource = OTLP.Resource()
    try readObject(&reader) { (key, reader) throws(ForwardingError) in
      switch key {
      case "attributes": resource.attributes = try readAttributes(&reader)
      case "droppedAttributesCount": resource.droppedAttributesCount = try readUInt32(&reader)
      default: return false
      }
      return true
    }
    return resource
  }

  // MARK: Reading scalars

  /// The text of an integer sent as a number or a string.
  private static func integerText(_ reader: inout JSONReader) throws(ForwardingError)
    -> (text: String, offset: Int)
  {
    let offset = reader.position
    switch try reader.nextKind() {
    case .string: return (try reader.readString(), offset)
    case .number: return (try reader.readNumberText(), offset)
    default: throw reader.error(.malformed, "expected an integer")
    }
  }

  /// An unsigned 64-bit integer (a decimal string or a number).
  package static func readUInt64(_ reader: inout JSONReader) throws(ForwardingError) -> UInt64 {
    let (text, offset) = try integerText(&reader)
    guard let value = UInt64(text), text.first != "+" else {
      throw ForwardingError(.malformed, "expected an unsigned 64-bit integer", offset: offset)
    }
    return value
  }

  /// A signed 64-bit integer (a decimal string or a number).
  package static func readInt64(_ reader: inout JSONReader) throws(ForwardingError) -> Int64 {
    let (text, offset) = try integerText(&reader)
    guard let value = Int64(text), text.first != "+" else {
      throw ForwardingError(.malformed, "expected a signed 64-bit integer", offset: offset)
    }
    return value
  }

  /// An unsigned 32-bit integer.
  package static func readUInt32(_ reader: inout JSONReader) throws(ForwardingError) -> UInt32 {
    let (text, offset) = try integerText(&reader)
    guard let value = UInt32(text), text.first != "+" else {
      throw ForwardingError(.malformed, "expected an unsigned 32-bit integer", offset: offset)
    }
    return value
  }

  /// A signed 32-bit integer (enums are written as integers in OTLP JSON).
  package static func readInt32(_ reader: inout JSONReader) throws(ForwardingError) -> Int32 {
    let (text, offset) = try integerText(&reader)
    guard let value = Int32(text), text.first != "+" else {
      throw ForwardingError(.malformed, "expected a 32-bit integer", offset: offset)
    }
    return value
  }

  /// A double: a number, a number in a string, or `"NaN"`, `"Infinity"`, `"-Infinity"`.
  package static func readDouble(_ reader: inout JSONReader) throws(ForwardingError) -> Double {
    let offset = reader.position
    let text: String
    switch try reader.nextKind() {
    case .number:
      text = try reader.readNumberText()
    case .string:
      text = try reader.readString()
      switch text {
      case "NaN": return .nan
      case "Infinity": return .infinity
      case "-Infinity": return -.infinity
      default:
        guard JSONReader.isNumber(text) else {
          throw ForwardingError(.malformed, "expected a number", offset: offset)
        }
      }
    default:
      throw reader.error(.malformed, "expected a number")
    }
    guard let value = Double(text) else {
      throw ForwardingError(.malformed, "expected a number", offset: offset)
    }
    return value
  }

  /// `bytes` in hex (OTLP's `traceId` and `spanId`), either case.
  package static func readHex(_ reader: inout JSONReader) throws(ForwardingError) -> [UInt8] {
    let offset = reader.position
    let text = try reader.readString()
    var bytes: [UInt8] = []
    bytes.reserveCapacity(text.utf8.count / 2)
    var high: UInt8? = nil
    for character in text.utf8 {
      guard let nibble = HexDigit.value(character) else {
        throw ForwardingError(.malformed, "expected hex digits", offset: offset)
      }
      if let first = high {
        bytes.append(first << 4 | nibble)
        high = nil
      } else {
        high = nibble
      }
    }
    guard high == nil else {
      throw ForwardingError(.malformed, "an odd number of hex digits", offset: offset)
    }
    return bytes
  }

  /// `bytes` in base64.
  package static func readBase64(_ reader: inout JSONReader) throws(ForwardingError) -> [UInt8] {
    let offset = reader.position
    guard let bytes = Base64.decode(try reader.readString()) else {
      throw ForwardingError(.malformed, "expected base64", offset: offset)
    }
    return bytes
  }

  /// Decodes one top-level JSON object with `read`, then checks nothing follows it.
  static func decodeDocument<Message>(
    _ bytes: [UInt8], _ read: (inout JSONReader) throws(ForwardingError) -> Message
  ) throws(ForwardingError) -> Message {
    var reader = JSONReader(bytes)
    let message = try read(&reader)
    try reader.finish()
    return message
  }

  // MARK: Resource → Scope → item

  /// Writes an `Export…ServiceRequest` object of `groups`, each item by `item` (its object).
  static func writeRequest<Group: OTLPResourceGroup>(
    _ groups: [Group], to writer: inout JSONWriter,
    item: (Group.ScopeGroup.Item, inout JSONWriter) -> Void
  ) {
    writer.object { object in
      guard !groups.isEmpty else { return }
      object.key(Group.requestKey)
      object.array { array in
        for group in groups { writeResourceGroup(group, to: &array, item: item) }
      }
    }
  }

  private static func writeResourceGroup<Group: OTLPResourceGroup>(
    _ group: Group, to writer: inout JSONWriter,
    item: (Group.ScopeGroup.Item, inout JSONWriter) -> Void
  ) {
    writer.object { object in
      if let resource = group.resource {
        object.key("resource")
        write(resource, to: &object)
      }
      if !group.scopeGroups.isEmpty {
        object.key(Group.scopesKey)
        object.array { array in
          for scopeGroup in group.scopeGroups {
            writeScopeGroup(scopeGroup, to: &array, item: item)
          }
        }
      }
      writeString("schemaUrl", group.schemaUrl, to: &object)
    }
  }

  private static func writeScopeGroup<Scope: OTLPScopeGroup>(
    _ scopeGroup: Scope, to writer: inout JSONWriter, item: (Scope.Item, inout JSONWriter) -> Void
  ) {
    writer.object { object in
      if let scope = scopeGroup.scope {
        object.key("scope")
        write(scope, to: &object)
      }
      if !scopeGroup.items.isEmpty {
        object.key(Scope.itemsKey)
        object.array { array in
          for element in scopeGroup.items { item(element, &array) }
        }
      }
      writeString("schemaUrl", scopeGroup.schemaUrl, to: &object)
    }
  }

  /// A request of one `Group` holding one scope group, whose items `items` writes (each as a
  /// whole value, into the items array): the bytes ``writeRequest(_:to:item:)`` writes for the
  /// request holding those items, when `items` writes at least one (that encoder leaves an
  /// empty array out, this one does not).
  static func writeRequest<Group: OTLPResourceGroup>(
    _ group: Group.Type, resource: OTLP.Resource, scope: OTLP.InstrumentationScope,
    to writer: inout JSONWriter, items: (inout JSONWriter) -> Void
  ) {
    writer.object { request in
      request.key(Group.requestKey)
      request.array { array in
        array.object { resourceGroup in
          resourceGroup.key("resource")
          write(resource, to: &resourceGroup)
          resourceGroup.key(Group.scopesKey)
          resourceGroup.array { array in
            array.object { scopeGroup in
              scopeGroup.key("scope")
              write(scope, to: &scopeGroup)
              scopeGroup.key(Group.ScopeGroup.itemsKey)
              scopeGroup.array(items)
            }
          }
        }
      }
    }
  }

  /// Reads the groups of an `Export…ServiceRequest` object, each item by `item`.
  static func readRequest<Group: OTLPResourceGroup>(
    _ reader: inout JSONReader,
    item: (inout JSONReader) throws(ForwardingError) -> Group.ScopeGroup.Item
  ) throws(ForwardingError) -> [Group] {
    let requestKey = "\(Group.requestKey)"
    var groups: [Group] = []
    try readObject(&reader) { (key, reader) throws(ForwardingError) in
      guard key == requestKey else { return false }
      try readArray(&reader) { (reader) throws(ForwardingError) in
        groups.append(try readResourceGroup(&reader, item: item))
      }
      return true
    }
    return groups
  }

  private static func readResourceGroup<Group: OTLPResourceGroup>(
    _ reader: inout JSONReader,
    item: (inout JSONReader) throws(ForwardingError) -> Group.ScopeGroup.Item
  ) throws(ForwardingError) -> Group {
    let scopesKey = "\(Group.scopesKey)"
    var group = Group()
    try readObject(&reader) { (key, reader) throws(ForwardingError) in
      switch key {
      case "resource": group.resource = try readResource(&reader)
      case scopesKey:
        try readArray(&reader) { (reader) throws(ForwardingError) in
          group.scopeGroups.append(try readScopeGroup(&reader, item: item))
        }
      case "schemaUrl": group.schemaUrl = try reader.readString()
      default: return false
      }
      return true
    }
    return group
  }

  private static func readScopeGroup<Scope: OTLPScopeGroup>(
    _ reader: inout JSONReader, item: (inout JSONReader) throws(ForwardingError) -> Scope.Item
  ) throws(ForwardingError) -> Scope {
    let itemsKey = "\(Scope.itemsKey)"
    var scopeGroup = Scope()
    try readObject(&reader) { (key, reader) throws(ForwardingError) in
      switch key {
      case "scope": scopeGroup.scope = try readScope(&reader)
      case itemsKey:
        try readArray(&reader) { (reader) throws(ForwardingError) in
          scopeGroup.items.append(try item(&reader))
        }
      case "schemaUrl": scopeGroup.schemaUrl = try reader.readString()
      default: return false
      }
      return true
    }
    return scopeGroup
  }
}
