extension OTLP {
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
}
