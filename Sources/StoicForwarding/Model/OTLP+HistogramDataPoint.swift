extension OTLP {
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
}
