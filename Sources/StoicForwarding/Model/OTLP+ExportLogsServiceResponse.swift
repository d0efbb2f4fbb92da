extension OTLP {
  /// The body of a successful answer to `POST /v1/logs`:
  /// `opentelemetry.proto.collector.logs.v1.ExportLogsServiceResponse`.
  public struct ExportLogsServiceResponse: Sendable, Hashable {
    /// Set when the receiver rejected some records, or has a warning; `nil` for a full success.
    public var partialSuccess: ExportLogsPartialSuccess?

    /// Creates a response.
    public init(partialSuccess: ExportLogsPartialSuccess? = nil) {
      self.partialSuccess = partialSuccess
    }
  }

  /// What a receiver rejected of a logs request:
  /// `opentelemetry.proto.collector.logs.v1.ExportLogsPartialSuccess`.
  public struct ExportLogsPartialSuccess: Sendable, Hashable {
    /// How many log records were rejected (0 with a message: a warning).
    public var rejectedLogRecords: Int64
    /// Why, in English, for a person.
    public var errorMessage: String

    /// Creates a partial success.
    public init(rejectedLogRecords: Int64 = 0, errorMessage: String = "") {
      self.rejectedLogRecords = rejectedLogRecords
      self.errorMessage = errorMessage
    }
  }
}
