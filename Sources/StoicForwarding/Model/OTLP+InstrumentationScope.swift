extension OTLP {
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
}
