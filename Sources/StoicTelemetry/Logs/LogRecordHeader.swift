/// The fixed first bytes of an encoded log record (``LogRecordFormat/header(of:)``): enough to
/// filter records by level and time without decoding them, whatever their version.
public struct LogRecordHeader: Sendable, Hashable {
  /// The format version the record was written with.
  public var version: UInt8
  /// The level byte as stored.
  public var levelRawValue: UInt8
  /// Wall-clock time when it was logged, in nanoseconds since 1970-01-01 00:00:00 UTC.
  public var timeNanoseconds: Int64

  /// Creates a header; every parameter is the property of the same name.
  public init(version: UInt8, levelRawValue: UInt8, timeNanoseconds: Int64) {
    self.version = version
    self.levelRawValue = levelRawValue
    self.timeNanoseconds = timeNanoseconds
  }

  /// The level, or `nil` for a byte this build does not know.
  public var level: LogLevel? { LogLevel(rawValue: levelRawValue) }
}
