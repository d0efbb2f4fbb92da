extension OTLP {
  /// A log record's severity: `opentelemetry.proto.logs.v1.SeverityNumber`. An open set, as in
  /// protobuf: a number with no name here is kept as it came.
  public struct SeverityNumber: RawRepresentable, Sendable, Hashable {
    /// The number on the wire (an integer in JSON too).
    public var rawValue: Int32

    /// Wraps a number.
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// 0: not set.
    public static let unspecified = SeverityNumber(rawValue: 0)
    /// 1: TRACE.
    public static let trace = SeverityNumber(rawValue: 1)
    /// 5: DEBUG.
    public static let debug = SeverityNumber(rawValue: 5)
    /// 9: INFO.
    public static let info = SeverityNumber(rawValue: 9)
    /// 10: INFO2 (swift-log's `notice`).
    public static let info2 = SeverityNumber(rawValue: 10)
    /// 13: WARN.
    public static let warn = SeverityNumber(rawValue: 13)
    /// 17: ERROR.
    public static let error = SeverityNumber(rawValue: 17)
    /// 21: FATAL (swift-log's `critical`).
    public static let fatal = SeverityNumber(rawValue: 21)
  }
}
