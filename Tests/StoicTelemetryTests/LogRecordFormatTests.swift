import StoicTesting
import Testing

@testable import StoicTelemetry

/// The log record's binary encoding: round trips of every field and metadata kind, the fixed
/// header, the depth limit, and a decoder that refuses hostile bytes with a typed error.
@Suite("LogRecordFormat: encoding, decoding, hostile bytes")
struct LogRecordFormatTests {
  /// A record using every metadata kind, nesting, empty strings and unicode.
  static let rich = LogRecord(
    sequence: 7, timeNanoseconds: 1_767_225_600_123_456_789, level: .warning,
    label: "com.example.stoic", message: "disk almost full: 97 % — ça déborde 🚨",
    metadata: [
      "": .string(""),
      "path": .string("/var/lib/app"),
      "attempt": .stringConvertible("3"),
      "ünïcödé 键": .string("值 \u{0}\u{7F} e\u{301} 👩‍👩‍👧"),
      "request": .dictionary([
        "id": .string("01HZX"), "headers": .dictionary(["accept": .string("*/*")]),
        "empty": .dictionary([:]),
      ]),
      "list": .array([.string("a"), .stringConvertible("42"), .array([]), .dictionary([:])]),
    ],
    source: "StoicTests", file: "Tests/StoicTelemetryTests/LogRecordFormatTests.swift",
    function: "rich()", line: 4242)

  @Test("every field and metadata kind survives a round trip, at every level")
  func roundTrip() throws {
    for level in LogLevel.allCases {
      var record = Self.rich
      record.level = level
      let bytes = LogRecordFormat.encode(record)
      #expect(bytes[LogRecordFormat.versionOffset] == LogRecordFormat.version)
      #expect(bytes[LogRecordFormat.levelOffset] == level.rawValue)
      #expect(try LogRecordFormat.decode(bytes, sequence: 7) == record)
    }
  }

  @Test("empty strings, no metadata, extreme times and lines")
  func edges() throws {
    for (time, line) in [(Int64.min, UInt.max), (0, 0), (-1, 1), (Int64.max, 127)] {
      let record = LogRecord(
        sequence: 1, timeNanoseconds: time, level: .trace, label: "", message: "", line: line)
      let bytes = LogRecordFormat.encode(record)
      #expect(try LogRecordFormat.decode(bytes, sequence: 1) == record)
    }
  }

  @Test("the size is computed exactly: the encoder fills the buffer to its last byte")
  func exactSize() {
    for record in [Self.rich, LogRecord(timeNanoseconds: 0, level: .info, label: "", message: "")] {
      let input = record.input
      let size = LogRecordFormat.encodedSize(input)
      var buffer = [UInt8](repeating: 0xAA, count: size + 8)
      let written = buffer.withUnsafeMutableBytes { all in
        LogRecordFormat.encode(
          input, timeNanoseconds: record.timeNanoseconds,
          into: UnsafeMutableRawBufferPointer(rebasing: all[0..<size]))
      }
      #expect(written == size)
      #expect(buffer[size...].allSatisfy { $0 == 0xAA }, "wrote past the record")
    }
  }

  @Test("a buffer too short gets a short record, never a write past its end")
  func shortBuffer() {
    var buffer = [UInt8](repeating: 0xAA, count: 64)
    let written = buffer.withUnsafeMutableBytes { all in
      LogRecordFormat.encode(
        LogRecordInput(
          level: .info, label: "label", message: String(repeating: "m", count: 100),
          file: "", function: "", line: 1),
        timeNanoseconds: 1, into: UnsafeMutableRawBufferPointer(rebasing: all[0..<20]))
    }
    #expect(written <= 20)
    #expect(buffer[20...].allSatisfy { $0 == 0xAA })
  }

  @Test("the header is read without decoding, for this version and for a newer one")
  func header() {
    var bytes = LogRecordFormat.encode(Self.rich)
    var header = bytes.withUnsafeBytes { LogRecordFormat.header(of: $0) }
    #expect(
      header
        == LogRecordHeader(
          version: 1, levelRawValue: LogLevel.warning.rawValue,
          timeNanoseconds: Self.rich.timeNanoseconds))
    #expect(header?.level == .warning)
    bytes[0] = 9
    header = bytes.withUnsafeBytes { LogRecordFormat.header(of: $0) }
    #expect(header?.version == 9 && header?.timeNanoseconds == Self.rich.timeNanoseconds)
    #expect(
      [UInt8](repeating: 1, count: 9).withUnsafeBytes { LogRecordFormat.header(of: $0) } == nil)
  }

  @Test("a record of a newer version is refused as such and kept whole as an unreadable entry")
  func newerVersion() throws {
    var bytes = LogRecordFormat.encode(Self.rich)
    bytes[0] = LogRecordFormat.version + 1
    bytes.append(contentsOf: [1, 2, 3])  // a field this build does not know
    #expect(throws: LogRecordDecodingError.newerVersion(2)) {
      try LogRecordFormat.decode(bytes, sequence: 3)
    }
    let entry = bytes.withUnsafeBytes { LogEntry(sequence: 3, bytes: $0) }
    guard case .unreadable(let unreadable) = entry else {
      Issue.record("decoded a newer record: \(entry)")
      return
    }
    #expect(unreadable.sequence == 3 && unreadable.version == 2 && unreadable.bytes == bytes)
    #expect(unreadable.reason.isNewerVersion)
    #expect(unreadable.header?.level == .warning)
  }

  @Test("values nested beyond the depth limit are stored as their description")
  func depthLimit() throws {
    var value = LogMetadataValue.string("bottom")
    for level in 0..<(LogRecordFormat.maximumDepth + 8) {
      value = level % 2 == 0 ? .array([value]) : .dictionary(["k": value])
    }
    let record = LogRecord(
      timeNanoseconds: 1, level: .info, label: "l", message: "m", metadata: ["deep": value])
    let decoded = try LogRecordFormat.decode(LogRecordFormat.encode(record), sequence: 1)
    var found = decoded.metadata["deep"]
    var depth = 0
    while let current = found {
      switch current {
      case .array(let values): found = values.first
      case .dictionary(let entries): found = entries["k"]
      case .stringConvertible(let text):
        #expect(text.contains("bottom"))
        found = nil
      case .string: Issue.record("reached the bottom string: nothing was cut")
      }
      if found != nil { depth += 1 }
    }
    #expect(depth == LogRecordFormat.maximumDepth)
  }

  @Test("crafted hostile records are refused with the right typed error")
  func craftedErrors() {
    let header: [UInt8] = [1, 2] + [UInt8](repeating: 0, count: 8)
    /// label, message, metadata (given), source, file, function, line.
    func record(metadata: [UInt8], tail: [UInt8] = [0, 0, 0, 0]) -> [UInt8] {
      header + [0, 0] + metadata + tail
    }
    let cases: [([UInt8], LogRecordDecodingError)] = [
      ([], .empty),
      ([0] + header.dropFirst(), .unknownVersion(0)),
      ([1, 2, 3], .truncated(offset: 3)),
      ([1, 7] + header.dropFirst(2) + [0, 0, 0, 0, 0, 0, 0], .unknownLevel(7)),
      (record(metadata: [0], tail: [0, 0, 0]), .truncated(offset: 16)),
      (record(metadata: [0], tail: [0, 0, 0, 0, 9]), .trailingBytes(offset: 17)),
      (record(metadata: [0], tail: [0, 0, 0, 0x80, 0x00]), .malformedVarint(offset: 16)),
      (
        record(metadata: [0], tail: [0, 0, 0] + [UInt8](repeating: 0xFF, count: 10) + [1]),
        .malformedVarint(offset: 16)
      ),
      (record(metadata: [1, 1, 0x61, 7, 0]), .unknownValueKind(7, offset: 15)),
      (record(metadata: [2, 1, 0x61, 0, 0, 1, 0x61, 0, 0]), .duplicateKey(offset: 17)),
      (record(metadata: [1, 1, 0xC3, 0, 0]), .invalidUTF8(offset: 13)),
      (record(metadata: [0xFF, 0xFF, 0x03]), .truncated(offset: 12)),
    ]
    for (bytes, expected) in cases {
      #expect(throws: expected, "\(bytes)") { try LogRecordFormat.decode(bytes, sequence: 1) }
    }
    var nested: [UInt8] = [1, 0]
    for _ in 0...LogRecordFormat.maximumDepth { nested += [3, 1] }
    nested += [0, 0]
    #expect(throws: LogRecordDecodingError.nestedTooDeep(offset: 14 + 2 * 32)) {
      try LogRecordFormat.decode(record(metadata: nested), sequence: 1)
    }
  }

  @Test("decoding mutated and random bytes never traps (seeded)")
  func mutatedBytes() {
    var random = SplitMix64(seed: CrashBudget.fromEnvironment().seed)
    let seeds = [Self.rich, LogRecord(timeNanoseconds: 3, level: .error, label: "a", message: "b")]
      .map(LogRecordFormat.encode)
    let iterations = Self.iterations
    var decoded = 0
    var refused = 0
    for iteration in 0..<iterations {
      var bytes = seeds[iteration % seeds.count]
      switch random.next() % 5 {
      case 0:
        for _ in 0..<(1 + random.next() % 4) {
          let index = Int(random.next() % UInt64(bytes.count))
          bytes[index] ^= UInt8(truncatingIfNeeded: random.next() | 1)
        }
      case 1:
        bytes.removeLast(Int(random.next() % UInt64(bytes.count)))
      case 2:
        let index = Int(random.next() % UInt64(bytes.count))
        bytes.insert(UInt8(truncatingIfNeeded: random.next()), at: index)
      case 3:
        let index = Int(random.next() % UInt64(bytes.count))
        bytes[index] = [0x00, 0x7F, 0x80, 0xFF][Int(random.next() % 4)]
      default:
        bytes = (0..<Int(random.next() % 200)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        if !bytes.isEmpty { bytes[0] = 1 }
      }
      do {
        let record = try LogRecordFormat.decode(bytes, sequence: 1)
        decoded += 1
        // Whatever decodes is a record the encoder writes the same way.
        #expect(LogRecordFormat.encode(record).count == bytes.count)
      } catch {
        refused += 1
      }
    }
    #expect(decoded + refused == iterations)
    #expect(refused > iterations / 2)
  }

  /// Mutations per run: `STOIC_FORMAT_MUTATIONS` or 20,000.
  static var iterations: Int {
    EnvironmentValue.integer("STOIC_FORMAT_MUTATIONS") ?? 20_000
  }
}
