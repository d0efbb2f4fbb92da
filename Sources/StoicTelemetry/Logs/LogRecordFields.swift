/// The fields of an encoded log record, borrowed from its bytes without decoding them into
/// strings: what a reader that only copies them elsewhere (the forwarder, writing OTLP
/// protobuf) needs, at no allocation per record. Read with
/// ``LogRecordFormat/fields(of:metadata:)``; valid only while the bytes are borrowed.
public struct LogRecordFields {
  /// The level.
  public var level: LogLevel
  /// Wall-clock time, nanoseconds since 1970.
  public var timeNanoseconds: Int64
  /// The logger's label, UTF-8.
  public var label: UnsafeRawBufferPointer
  /// The message, UTF-8.
  public var message: UnsafeRawBufferPointer
  /// The source, UTF-8.
  public var source: UnsafeRawBufferPointer
  /// The file, UTF-8.
  public var file: UnsafeRawBufferPointer
  /// The function, UTF-8.
  public var function: UnsafeRawBufferPointer
  /// The line.
  public var line: UInt64
}
