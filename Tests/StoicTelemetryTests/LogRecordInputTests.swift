import StoicStore
import StoicTesting
import Testing

@testable import StoicTelemetry

/// One log call as one value, whichever form its metadata takes: a ``LogMetadata``, or
/// ``LogMetadataPairs`` the spool walks where they are. Both forms give the same record, the
/// same bytes, the same equality, and the pairs go through redaction as a dictionary does.
@Suite("Log record input")
struct LogRecordInputTests {
  /// Pairs that count their walks (the spool walks them once, encoding them on the stack, or
  /// when they do not fit there twice: that try, then into a dictionary it sizes and encodes),
  /// and that no dictionary is built from them on the log path when they fit.
  struct CountedPairs: LogMetadataPairs, @unchecked Sendable {
    let pairs: [(String, LogMetadataValue)]
    let walks = Counter()

    final class Counter: @unchecked Sendable {
      var count = 0
    }

    var pairCount: Int { pairs.count }

    func forEachPair(_ body: (String, LogMetadataValue) -> Void) {
      walks.count += 1
      for (key, value) in pairs { body(key, value) }
    }
  }

  static let pairs: [(String, LogMetadataValue)] = [
    ("user", .string("u-1")), ("Authorization", .string("Bearer s3cret")),
    ("request", .dictionary(["path": .string("/v1")])),
  ]

  static var dictionary: LogMetadata {
    Dictionary(uniqueKeysWithValues: pairs.map { ($0.0, $0.1) })
  }

  static func input(pairs: CountedPairs) -> LogRecordInput {
    LogRecordInput(
      level: .warning, label: "l", message: "m", metadataPairs: pairs, source: "s", file: "f",
      function: "g", line: 7)
  }

  static func input(dictionary: LogMetadata) -> LogRecordInput {
    LogRecordInput(
      level: .warning, label: "l", message: "m", metadata: dictionary, source: "s", file: "f",
      function: "g", line: 7)
  }

  @Test("the two forms are equal, hash alike, read the same metadata and encode the same bytes")
  func formsAgree() throws {
    let pairs = CountedPairs(pairs: Self.pairs)
    let fromPairs = Self.input(pairs: pairs)
    let fromDictionary = Self.input(dictionary: Self.dictionary)
    #expect(fromPairs == fromDictionary)
    #expect(fromPairs.hashValue == fromDictionary.hashValue)
    #expect(fromPairs.metadata == Self.dictionary)
    var other = fromPairs
    other.metadata["user"] = .string("u-2")
    #expect(other != fromDictionary)
    #expect(other.metadata["user"] == .string("u-2"))
    // Pairs in another order are the same metadata; their encoding follows their order.
    let size = LogRecordFormat.encodedSize(fromPairs)
    #expect(size == LogRecordFormat.encodedSize(fromDictionary))
    var bytes = [UInt8](repeating: 0, count: size)
    let written = bytes.withUnsafeMutableBytes {
      LogRecordFormat.encode(fromPairs, timeNanoseconds: 5, into: $0)
    }
    #expect(written == size)
    let decoded = try LogRecordFormat.decode(bytes, sequence: 1)
    #expect(decoded.input == fromDictionary)
  }

  @Test("the spool logs pairs where they are (one walk, no dictionary) and reads them back")
  func spoolLogsPairs() throws {
    let disk = SimulatedFileSystem()
    let spool = try SpoolTestSupport.open(disk)
    let pairs = CountedPairs(pairs: Self.pairs)
    #expect(spool.logs.log(Self.input(pairs: pairs)) != nil)
    #expect(pairs.walks.count == 1)
    try spool.close()
    let reopened = try SpoolTestSupport.open(disk)
    defer { try? reopened.close() }
    let record = try #require(try SpoolTestSupport.records(reopened).first { $0.label == "l" })
    #expect(record.input == Self.input(dictionary: Self.dictionary))
  }

  @Test(
    "metadata around the stack scratch's size is stored as the format encodes it, whichever way",
    arguments: [1000, 1010, 1015, 1016, 1017, 1018, 1030, 4000])
  func metadataAroundTheScratchSize(valueBytes: Int) throws {
    // One pair of a key of 3 bytes and a value of `valueBytes`: the map's encoding is 1 (count)
    // + 1 + 3 (key) + 1 (kind) + the value's varint length (2) + `valueBytes`, so 1016 bytes of
    // value make it 1024, the scratch's size, the first that does not fit.
    let pairs = CountedPairs(pairs: [("big", .string(String(repeating: "v", count: valueBytes)))])
    let input = Self.input(pairs: pairs)
    let disk = SimulatedFileSystem()
    let spool = try SpoolTestSupport.open(disk)
    let sequence = try #require(spool.logs.log(input))
    let mapSize = 8 + valueBytes
    #expect(pairs.walks.count == (mapSize < LogRecordFormat.metadataScratchSize ? 1 : 2))
    try spool.close()
    let reopened = try SpoolTestSupport.open(disk)
    defer { try? reopened.close() }
    let record = try #require(
      try SpoolTestSupport.records(reopened).first { $0.sequence == sequence })
    #expect(record.input == input)
    // What the log path writes from the stack's copy is what the format writes from the pairs.
    let size = LogRecordFormat.encodedSize(input)
    var direct = [UInt8](repeating: 0, count: size)
    direct.withUnsafeMutableBytes {
      _ = LogRecordFormat.encode(input, timeNanoseconds: 9, into: $0)
    }
    let viaScratch = withUnsafeTemporaryAllocation(
      byteCount: LogRecordFormat.metadataScratchSize, alignment: 1
    ) { scratch -> [UInt8]? in
      let encoded = LogRecordFormat.encodeMetadata(pairs, into: scratch)
      #expect((encoded == nil) == (mapSize >= LogRecordFormat.metadataScratchSize))
      guard let encoded else { return nil }
      #expect(LogRecordFormat.encodedSize(input, encodedMetadataCount: encoded.count) == size)
      var viaScratch = [UInt8](repeating: 0, count: size)
      viaScratch.withUnsafeMutableBytes {
        _ = LogRecordFormat.encode(input, encodedMetadata: encoded, timeNanoseconds: 9, into: $0)
      }
      return viaScratch
    }
    if let viaScratch {
      #expect(viaScratch == direct)
      #expect(try LogRecordFormat.decode(viaScratch, sequence: 1).input == input)
    }
  }

  /// Pairs whose one value is a description taken at each walk, a byte longer every time.
  struct GrowingPairs: LogMetadataPairs, @unchecked Sendable {
    let base: Int
    let walks = CountedPairs.Counter()

    var pairCount: Int { 1 }

    func forEachPair(_ body: (String, LogMetadataValue) -> Void) {
      walks.count += 1
      body("grows", .stringConvertible(String(repeating: "x", count: base + walks.count)))
    }
  }

  @Test(
    "pairs that change from walk to walk are stored as one walk gave them, on the stack or not",
    arguments: [100, 2000])
  func pairsChangingBetweenWalks(base: Int) throws {
    let disk = SimulatedFileSystem()
    let spool = try SpoolTestSupport.open(disk)
    let pairs = GrowingPairs(base: base)
    let sequence = try #require(
      spool.logs.log(
        LogRecordInput(
          level: .info, label: "l", message: "m", metadataPairs: pairs, source: "s", file: "f",
          function: "g", line: 7)))
    try spool.close()
    let reopened = try SpoolTestSupport.open(disk)
    defer { try? reopened.close() }
    let record = try #require(
      try SpoolTestSupport.records(reopened).first { $0.sequence == sequence })
    // The last walk's value, whole: the size and the bytes came from the same walk.
    #expect(
      record.metadata["grows"]
        == .stringConvertible(String(repeating: "x", count: base + pairs.walks.count)))
  }

  @Test("pairs go through redaction as a dictionary does")
  func pairsAreRedacted() throws {
    let disk = SimulatedFileSystem()
    var options = SpoolTestSupport.options()
    options.logs.redactedKeys = ["authorization"]
    let spool = try SpoolTestSupport.open(disk, options: options)
    #expect(spool.logs.log(Self.input(pairs: CountedPairs(pairs: Self.pairs))) != nil)
    try spool.close()
    let reopened = try SpoolTestSupport.open(disk)
    defer { try? reopened.close() }
    let record = try #require(try SpoolTestSupport.records(reopened).first { $0.label == "l" })
    #expect(record.metadata["Authorization"] == LogRedaction.placeholder)
    #expect(record.metadata["user"] == .string("u-1"))
  }
}
