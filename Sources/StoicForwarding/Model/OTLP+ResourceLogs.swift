extension OTLP {
  /// The log records of one resource: `opentelemetry.proto.logs.v1.ResourceLogs`.
  public struct ResourceLogs: Sendable, Hashable {
    /// The resource; `nil` when not given.
    public var resource: Resource?
    /// The records, by scope.
    public var scopeLogs: [ScopeLogs]
    /// The schema URL of the resource's attributes.
    public var schemaUrl: String

    /// Creates the records of one resource.
    public init(resource: Resource? = nil, scopeLogs: [ScopeLogs] = [], schemaUrl: String = "") {
      self.resource = resource
      self.scopeLogs = scopeLogs
      self.schemaUrl = schemaUrl
    }
  }
}
