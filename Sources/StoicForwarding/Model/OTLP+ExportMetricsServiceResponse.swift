extension OTLP {
  /// The body of a successful answer to `POST /v1/metrics`:
  /// `opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceResponse`.
  public struct ExportMetricsServiceResponse: Sendable, Hashable {
    /// Set when the receiver rejected some points, or has a warning; `nil` for a full success.
    public var partialSuccess: ExportMetricsPartialSuccess?

    /// Creates a response.
    public init(partialSuccess: ExportMetricsPartialSuccess? = nil) {
      self.partialSuccess = partialSuccess
    }
  }

  /// What a receiver rejected of a metrics request:
  /// `opentelemetry.proto.collector.metrics.v1.ExportMetricsPartialSuccess`.
  public struct ExportMetricsPartialSuccess: Sendable, Hashable {
    /// How many data points were rejected (0 with a message: a warning).
    public var rejectedDataPoints: Int64
    /// Why, in English, for a person.
    public var errorMessage: String

    /// Creates a partial success.
    public init(rejectedDataPoints: Int64 = 0, errorMessage: String = "") {
      self.rejectedDataPoints = rejectedDataPoints
      self.errorMessage = errorMessage
    }
  }
}
