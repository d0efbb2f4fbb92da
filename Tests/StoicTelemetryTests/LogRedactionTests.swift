import StoicStore
import StoicTesting
import Testing

@testable import StoicTelemetry

@Suite("Log metadata redaction")
struct LogRedactionTests {
  static let secret = "s3cr3t-Bearer-7f9c2a"

  /// Metadata with the secret under listed keys in every position: top level in another case,
  /// inside a dictionary, inside a dictionary inside an array; and under a key not listed.
  static func metadata(unlistedSecret: Bool) -> LogMetadata {
    [
      "Authorization": .string("Bearer \(secret)"),
      "request": .dictionary([
        "path": .string("/v1/login"),
        "headers": .dictionary(["X-Api-Key": .stringConvertible(secret)]),
      ]),
      "attempts": .array([.dictionary(["password": .array([.string(secret)])]), .string("2")]),
      "user": .string(unlistedSecret ? secret : "u-1"),
    ]
  }

  /// Every byte of every file under `directory` on `disk`.
  static func allBytes(_ disk: SimulatedFileSystem, under directory: String) throws(StoreError)
    -> [[UInt8]]
  {
    var files: [[UInt8]] = []
    for name in try disk.list(directory) {
      let path = StorePath.join(directory, name)
      if let bytes = disk.contents(path) {
        files.append(bytes)
      } else {
        files += try allBytes(disk, under: path)
      }
    }
    return files
  }

  static func contains(_ files: [[UInt8]], _ text: String) -> Bool {
    let needle = Array(text.utf8)
    return files.contains { file in
      file.count >= needle.count
        && (0...(file.count - needle.count)).contains {
          file[$0..<($0 + needle.count)].elementsEqual(needle)
        }
    }
  }

  /// Logs the metadata through a spool with `redactedKeys` on a simulated disk, closes it, and
  /// returns the disk and the records read back.
  static func logged(redactedKeys: Set<String>, unlistedSecret: Bool) throws -> (
    SimulatedFileSystem, [LogRecord]
  ) {
    let disk = SimulatedFileSystem()
    var options = SpoolTestSupport.options()
    options.logs.redactedKeys = redactedKeys
    let spool = try SpoolTestSupport.open(disk, options: options)
    #expect(
      spool.logs.log(
        level: .critical, label: "auth", message: "login",
        metadata: metadata(unlistedSecret: unlistedSecret)) != nil)
    try spool.close()
    let reopened = try SpoolTestSupport.open(disk)
    defer { try? reopened.close() }
    let records = try SpoolTestSupport.records(reopened).filter { $0.label == "auth" }
    return (disk, records)
  }

  @Test("a redacted key's value never appears in any byte of the spool, at any depth or case")
  func redactedValuesNeverReachTheDisk() throws {
    let (disk, records) = try Self.logged(
      redactedKeys: ["authorization", "x-api-key", "PASSWORD"], unlistedSecret: false)
    #expect(!Self.contains(try Self.allBytes(disk, under: SpoolTestSupport.root), Self.secret))
    let record = try #require(records.first)
    let redacted = LogRedaction.placeholder
    #expect(record.metadata["Authorization"] == redacted)
    #expect(
      record.metadata["request"]
        == .dictionary([
          "path": .string("/v1/login"), "headers": .dictionary(["X-Api-Key": redacted]),
        ]))
    #expect(
      record.metadata["attempts"] == .array([.dictionary(["password": redacted]), .string("2")]))
    #expect(record.metadata["user"] == .string("u-1"))
  }

  @Test("without the key listed the value is stored, so the scan above can find it")
  func unlistedValuesAreStored() throws {
    let (disk, records) = try Self.logged(
      redactedKeys: LogSpoolOptions.commonSecretKeys, unlistedSecret: true)
    #expect(Self.contains(try Self.allBytes(disk, under: SpoolTestSupport.root), Self.secret))
    let record = try #require(records.first)
    #expect(record.metadata["user"] == .string(Self.secret))
    #expect(record.metadata["Authorization"] == LogRedaction.placeholder)
  }

  @Test("metadata without a listed key is passed through untouched, not copied")
  func nothingToRedact() {
    let redaction = LogRedaction(["token"])
    #expect(redaction.redacted(["user": .string("u"), "tokens": .string("3")]) == nil)
    #expect(LogRedaction([]).redacted(["token": .string("x")]) == nil)
    #expect(redaction.redacted(["ToKeN": .array([])]) == ["ToKeN": LogRedaction.placeholder])
    var options = LogSpoolOptions()
    options.redactedKeys = ["token"]
    #expect(options.redaction.redacted(["TOKEN": .string("x")]) != nil)
  }
}
