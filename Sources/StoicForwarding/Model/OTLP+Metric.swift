extension OTLP {
  /// One metric and its points: `opentelemetry.proto.metrics.v1.Metric`.
  public struct Metric: Sendable, Hashable {
    /// The kinds of metric this model carries (the `data` oneof; exponential histograms and
    /// summaries are skipped when decoding).
    public enum Data: Sendable, Hashable {
      /// `gauge`.
      case gauge(Gauge)
      /// `sum`.
      case sum(Sum)
      /// `histogram`.
      case histogram(Histogram)
    }

    /// The metric's name (`requests.count`).
    public var name: String
    /// What it measures.
    public var description: String
    /// Its unit, UCUM-style (`ms`, `By`, `1`).
    public var unit: String
    /// Its points; `nil` when the metric carries none of the kinds above.
    public var data: Data?

    /// Creates a metric.
    public init(name: String, description: String = "", unit: String = "", data: Data? = nil) {
      self.name = name
      self.description = description
      self.unit = unit
      self.data = data
    }

    /// How many data points the metric carries.
    public var dataPointCount: Int {
      switch data {
      case .gauge(let gauge): gauge.dataPoints.count
      case .sum(let sum): sum.dataPoints.count
      case .histogram(let histogram): histogram.dataPoints.count
      case nil: 0
      }
    }
  }
}
