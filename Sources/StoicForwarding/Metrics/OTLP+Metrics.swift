// The metrics signal's messages: `opentelemetry.proto.metrics.v1` and
// `opentelemetry.proto.collector.metrics.v1`, outer to inner.

extension OTLP {
  /// The body of a `POST /v1/metrics`:
  /// `opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest`.
  public struct ExportMetricsServiceRequest: Sendable, Hashable {
    /// The metrics, by resource.
    public var resourceMetrics: [ResourceMetrics]

    /// Creates a request.
    public init(resourceMetrics: [ResourceMetrics] = []) {
      self.resourceMetrics = resourceMetrics
    }

    /// How many data points the request carries (what a partial success counts).
    public var dataPointCount: Int {
      resourceMetrics.reduce(0) { total, resource in
        resource.scopeMetrics.reduce(total) { scopeTotal, scope in
          scope.metrics.reduce(scopeTotal) { $0 + $1.dataPointCount }
        }
      }
    }
  }

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

  /// The metrics of one resource: `opentelemetry.proto.metrics.v1.ResourceMetrics`.
  public struct ResourceMetrics: Sendable, Hashable {
    /// The resource; `nil` when not given.
    public var resource: Resource?
    /// The metrics, by scope.
    public var scopeMetrics: [ScopeMetrics]
    /// The schema URL of the resource's attributes.
    public var schemaUrl: String

    /// Creates the metrics of one resource.
    public init(
      resource: Resource? = nil, scopeMetrics: [ScopeMetrics] = [], schemaUrl: String = ""
    ) {
      self.resource = resource
      self.scopeMetrics = scopeMetrics
      self.schemaUrl = schemaUrl
    }
  }

  /// The metrics of one instrumentation scope: `opentelemetry.proto.metrics.v1.ScopeMetrics`.
  public struct ScopeMetrics: Sendable, Hashable {
    /// The scope; `nil` when not given.
    public var scope: InstrumentationScope?
    /// The metrics.
    public var metrics: [Metric]
    /// The schema URL of the metrics' attributes.
    public var schemaUrl: String

    /// Creates a group of metrics.
    public init(scope: InstrumentationScope? = nil, metrics: [Metric] = [], schemaUrl: String = "")
    {
      self.scope = scope
      self.metrics = metrics
      self.schemaUrl = schemaUrl
    }
  }

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

  /// Values sampled at a time, not summed: `opentelemetry.proto.metrics.v1.Gauge`.
  public struct Gauge: Sendable, Hashable {
    /// The points.
    public var dataPoints: [NumberDataPoint]

    /// Creates a gauge.
    public init(dataPoints: [NumberDataPoint] = []) {
      self.dataPoints = dataPoints
    }
  }

  /// A sum over time (a counter when monotonic): `opentelemetry.proto.metrics.v1.Sum`.
  public struct Sum: Sendable, Hashable {
    /// The points.
    public var dataPoints: [NumberDataPoint]
    /// Delta or cumulative.
    public var aggregationTemporality: AggregationTemporality
    /// Whether the sum only ever grows (a counter).
    public var isMonotonic: Bool

    /// Creates a sum; by default a monotonic cumulative one, as a counter is.
    public init(
      dataPoints: [NumberDataPoint] = [],
      aggregationTemporality: AggregationTemporality = .cumulative, isMonotonic: Bool = true
    ) {
      self.dataPoints = dataPoints
      self.aggregationTemporality = aggregationTemporality
      self.isMonotonic = isMonotonic
    }
  }

  /// Distributions in buckets with explicit bounds: `opentelemetry.proto.metrics.v1.Histogram`.
  public struct Histogram: Sendable, Hashable {
    /// The points.
    public var dataPoints: [HistogramDataPoint]
    /// Delta or cumulative.
    public var aggregationTemporality: AggregationTemporality

    /// Creates a histogram; cumulative by default.
    public init(
      dataPoints: [HistogramDataPoint] = [],
      aggregationTemporality: AggregationTemporality = .cumulative
    ) {
      self.dataPoints = dataPoints
      self.aggregationTemporality = aggregationTemporality
    }
  }

  /// One value of a gauge or sum: `opentelemetry.proto.metrics.v1.NumberDataPoint`.
  public struct NumberDataPoint: Sendable, Hashable {
    /// The value: an integer or a double (`asInt`, `asDouble`).
    public enum Value: Sendable, Hashable {
      /// `asInt` (`sfixed64`; a decimal string in JSON).
      case int(Int64)
      /// `asDouble`.
      case double(Double)
    }

    /// The point's dimensions.
    public var attributes: [KeyValue]
    /// When the accumulation began (cumulative sums), in nanoseconds since the Unix epoch.
    public var startTimeUnixNano: UInt64
    /// When the value was taken, in nanoseconds since the Unix epoch.
    public var timeUnixNano: UInt64
    /// The value; `nil` when the point carries none.
    public var value: Value?
    /// `DataPointFlags` (bit 0: no recorded value).
    public var flags: UInt32

    /// Creates a point.
    public init(
      attributes: [KeyValue] = [], startTimeUnixNano: UInt64 = 0, timeUnixNano: UInt64 = 0,
      value: Value? = nil, flags: UInt32 = 0
    ) {
      self.attributes = attributes
      self.startTimeUnixNano = startTimeUnixNano
      self.timeUnixNano = timeUnixNano
      self.value = value
      self.flags = flags
    }
  }

  /// One distribution of a histogram with explicit bounds:
  /// `opentelemetry.proto.metrics.v1.HistogramDataPoint`.
  public struct HistogramDataPoint: Sendable, Hashable {
    /// The point's dimensions.
    public var attributes: [KeyValue]
    /// When the accumulation began, in nanoseconds since the Unix epoch.
    public var startTimeUnixNano: UInt64
    /// When the distribution was taken, in nanoseconds since the Unix epoch.
    public var timeUnixNano: UInt64
    /// How many values were recorded (the sum of ``bucketCounts``).
    public var count: UInt64
    /// The sum of the values, when known.
    public var sum: Double?
    /// How many values fell in each bucket: one more than ``explicitBounds``.
    public var bucketCounts: [UInt64]
    /// The buckets' upper bounds, increasing (bucket *i* holds values in
    /// `(explicitBounds[i-1], explicitBounds[i]]`).
    public var explicitBounds: [Double]
    /// `DataPointFlags`.
    public var flags: UInt32
    /// The smallest value recorded, when known.
    public var min: Double?
    /// The largest value recorded, when known.
    public var max: Double?

    /// Creates a point.
    public init(
      attributes: [KeyValue] = [], startTimeUnixNano: UInt64 = 0, timeUnixNano: UInt64 = 0,
      count: UInt64 = 0, sum: Double? = nil, bucketCounts: [UInt64] = [],
      explicitBounds: [Double] = [], flags: UInt32 = 0, min: Double? = nil, max: Double? = nil
    ) {
      self.attributes = attributes
      self.startTimeUnixNano = startTimeUnixNano
      self.timeUnixNano = timeUnixNano
      self.count = count
      self.sum = sum
      self.bucketCounts = bucketCounts
      self.explicitBounds = explicitBounds
      self.flags = flags
      self.min = min
      self.max = max
    }
  }

  /// Whether a sum or histogram restarts at each report or accumulates:
  /// `opentelemetry.proto.metrics.v1.AggregationTemporality`. An open set, as in protobuf.
  public struct AggregationTemporality: RawRepresentable, Sendable, Hashable {
    /// The number on the wire (an integer in JSON too).
    public var rawValue: Int32

    /// Wraps a number.
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// 0: not set (invalid for a sum or histogram).
    public static let unspecified = AggregationTemporality(rawValue: 0)
    /// 1: each point covers the time since the previous report.
    public static let delta = AggregationTemporality(rawValue: 1)
    /// 2: each point covers the time since `startTimeUnixNano`.
    public static let cumulative = AggregationTemporality(rawValue: 2)
  }
}

extension OTLP.ResourceMetrics: OTLPResourceGroup {
  init() { self.init(resource: nil) }
  // Modified in place (a decoder appends to it): a setter would copy the array per append.
  var scopeGroups: [OTLP.ScopeMetrics] {
    get { scopeMetrics }
    _modify { yield &scopeMetrics }
  }
  static var requestKey: StaticString { "resourceMetrics" }
  static var scopesKey: StaticString { "scopeMetrics" }
}

extension OTLP.ScopeMetrics: OTLPScopeGroup {
  init() { self.init(scope: nil) }
  // Modified in place (a decoder appends to it): a setter would copy the array per append.
  var items: [OTLP.Metric] {
    get { metrics }
    _modify { yield &metrics }
  }
  static var itemsKey: StaticString { "metrics" }
  static func writeItem(_ item: OTLP.Metric, to writer: inout ProtobufWriter) {
    OTLPMetricsProtobuf.write(item, to: &writer)
  }
  static func readItem(_ reader: inout ProtobufReader) throws(ForwardingError) -> OTLP.Metric {
    try OTLPMetricsProtobuf.readMetric(&reader)
  }
  static func writeItem(_ item: OTLP.Metric, to writer: inout JSONWriter) {
    OTLPMetricsJSON.write(item, to: &writer)
  }
  static func readItem(_ reader: inout JSONReader) throws(ForwardingError) -> OTLP.Metric {
    try OTLPMetricsJSON.readMetric(&reader)
  }
}

extension OTLP.ExportMetricsServiceRequest: OTLPExportServiceRequest {
  /// Metrics.
  public static var signal: OTLPSignal { .metrics }

  var resourceGroups: [OTLP.ResourceMetrics] { resourceMetrics }

  init(resourceGroups: [OTLP.ResourceMetrics]) { self.init(resourceMetrics: resourceGroups) }

  /// Appends the binary protobuf encoding to `buffer`.
  public func encodeProtobuf(into buffer: inout [UInt8]) { appendProtobuf(to: &buffer) }

  /// Decodes binary protobuf.
  public init(protobuf bytes: [UInt8]) throws(ForwardingError) {
    try self.init(readingProtobuf: bytes)
  }

  /// Appends the OTLP JSON encoding to `buffer`.
  public func encodeJSON(into buffer: inout [UInt8]) { appendJSON(to: &buffer) }

  /// Decodes OTLP JSON.
  public init(json bytes: [UInt8]) throws(ForwardingError) { try self.init(readingJSON: bytes) }
}

extension OTLP.ExportMetricsServiceResponse: OTLPExportServiceResponse {
  /// The data points the partial success rejected and its message, or `nil` for a full success.
  public var rejection: (count: Int64, message: String)? {
    partialSuccess.map { ($0.rejectedDataPoints, $0.errorMessage) }
  }

  /// A response holding the partial success `rejection` (data points rejected and a message), or a
  /// full success for `nil`.
  public init(rejection: (count: Int64, message: String)?) {
    self.init(
      partialSuccess: rejection.map {
        OTLP.ExportMetricsPartialSuccess(rejectedDataPoints: $0.count, errorMessage: $0.message)
      })
  }

  /// `rejectedDataPoints`.
  public static var rejectedCountKey: StaticString { "rejectedDataPoints" }
}
