extension OTLP {
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
}
