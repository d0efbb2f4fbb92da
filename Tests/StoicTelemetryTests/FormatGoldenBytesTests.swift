import Testing

@testable import StoicTelemetry

/// The log record's and the metric sample's bytes, spelled out from the layouts their formats
/// document: a change to an encoder (or to the byte cursor it writes with) that moves one byte
/// fails here.
@Suite struct FormatGoldenBytesTests {
  static func le64(_ value: UInt64) -> [UInt8] {
    (0..<8).map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
  }

  @Test func aLogRecordIsWrittenAsDocumented() {
    let record = LogRecord(
      timeNanoseconds: 0x0102_0304_0506_0708, level: .info, label: "l", message: "mé",
      metadata: ["k": .array([.stringConvertible("1")])], source: "s", file: "f",
      function: "g", line: 300)
    let expected: [UInt8] =
      [1, 2] + Self.le64(0x0102_0304_0506_0708) + [1, 0x6C] + [3, 0x6D, 0xC3, 0xA9]
      + [1, 1, 0x6B, LogRecordFormat.kindArray, 1, LogRecordFormat.kindStringConvertible, 1, 0x31]
      + [1, 0x73, 1, 0x66, 1, 0x67] + [0xAC, 0x02]
    #expect(LogRecordFormat.encode(record) == expected)
  }

  @Test("version 1 bytes, spelled out from the documented layout, are read by the current reader")
  func aVersion1LogRecordIsRead() throws {
    let bytes: [UInt8] =
      [1, 4] + Self.le64(UInt64(bitPattern: -5)) + [2, 0x61, 0x70] + [2, 0x68, 0x69]
      + [2] + [1, 0x6B, LogRecordFormat.kindString, 1, 0x76]
      + [1, 0x64, LogRecordFormat.kindDictionary, 1, 1, 0x6E, LogRecordFormat.kindString, 0]
      + [0, 1, 0x66, 0] + [0x80, 0x01]
    let record = try LogRecordFormat.decode(bytes, sequence: 9)
    #expect(
      record
        == LogRecord(
          sequence: 9, timeNanoseconds: -5, level: .warning, label: "ap", message: "hi",
          metadata: ["k": .string("v"), "d": .dictionary(["n": .string("")])], file: "f",
          line: 128))
    #expect(record.input.level == .warning && record.message == "hi")
  }

  @Test func aMetricSampleRecordIsWrittenAsDocumented() {
    let sample = MetricSample(
      name: "n", dimensions: [MetricDimension("k", "v")], kind: .gauge, unit: "s",
      startNanoseconds: 1, timeNanoseconds: 2, value: .double(1.5))
    let body: [UInt8] =
      [3, 0, 0, 0] + Self.le64(1) + Self.le64(2) + [1, 0, 0x6E, 1, 0, 0x73] + [1, 0]
      + [1, 0, 0x6B, 1, 0, 0x76] + [0, 0] + Self.le64((1.5).bitPattern)
    let expected: [UInt8] =
      [1, 0, 0, 0, 1, 0, 0, 0] + [UInt8(body.count), 0, 0, 0] + body
    #expect(MetricSampleFormat.encode([sample]) == expected)
  }
}
