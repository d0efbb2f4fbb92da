// The swift-log handler's tests run only with the `SwiftLog` trait:
// `swift test --traits SwiftLog`. A default build compiles nothing here.
#if SwiftLog
  import Logging
  import StoicLogging
  import StoicStore
  import StoicTelemetry
  import StoicTesting
  import Testing

  /// The swift-log handler: levels, metadata (the handler's, the provider's, the call's),
  /// value semantics, `log(event:)` with an error, and that the records land in the spool.
  @Suite("StoicLogHandler: swift-log into the telemetry spool")
  struct StoicLogHandlerTests {
    struct Failure: Error, CustomStringConvertible {
      var description: String { "the disk is on fire" }
    }

    /// A spool on a simulated disk whose maintenance runs inline.
    static func spool(_ disk: SimulatedFileSystem) throws -> TelemetrySpool {
      try TelemetrySpool.open(
        at: "/spool",
        options: TelemetryOptions(
          logs: LogSpoolOptions(maxDelay: .seconds(3600), backgroundMaintenance: false)),
        fileSystem: disk)
    }

    static func appRecords(_ spool: TelemetrySpool) throws -> [LogRecord] {
      try spool.logs.entries().compactMap(\.record).filter { $0.label != LogSpool.eventLabel }
    }

    @Test("a logger bootstrapped with the handler writes every field into the spool")
    func fields() throws {
      let telemetry = try Self.spool(SimulatedFileSystem())
      let logger = Logger(label: "com.example.app") { StoicLogHandler(label: $0, spool: telemetry) }
      logger.info(
        "hello", metadata: ["count": "\(42)", "nested": ["list": ["a", "b"]]], source: "Module",
        file: "File.swift", function: "run()", line: 7)
      let record = try #require(try Self.appRecords(telemetry).first)
      #expect(record.level == .info && record.label == "com.example.app")
      #expect(record.message == "hello" && record.source == "Module")
      #expect(record.file == "File.swift" && record.function == "run()" && record.line == 7)
      #expect(
        record.metadata["count"] == .stringConvertible("42")
          || record.metadata["count"] == .string("42"))
      #expect(
        record.metadata["nested"] == .dictionary(["list": .array([.string("a"), .string("b")])]))
      try telemetry.close()
    }

    @Test("the log level filters; every swift-log level maps to the spool's")
    func levels() throws {
      let telemetry = try Self.spool(SimulatedFileSystem())
      var logger = Logger(label: "levels") { StoicLogHandler(label: $0, spool: telemetry) }
      logger.logLevel = .warning
      logger.info("filtered")
      logger.warning("kept")
      logger.logLevel = .trace
      for level in Logger.Level.allCases { logger.log(level: level, "at \(level)") }
      let records = try Self.appRecords(telemetry)
      #expect(records.map(\.message) == ["kept"] + Logger.Level.allCases.map { "at \($0)" })
      #expect(records.dropFirst().map(\.level) == LogLevel.allCases)
      try telemetry.close()
    }

    @Test(
      "metadata: handler, then provider, then call; an error adds exception.message and exception.type"
    )
    func metadataMerge() throws {
      let telemetry = try Self.spool(SimulatedFileSystem())
      let provider = Logger.MetadataProvider { ["from": "provider", "provider.only": "p"] }
      var logger = Logger(label: "merge") {
        StoicLogHandler(label: $0, spool: telemetry, metadataProvider: provider)
      }
      logger[metadataKey: "from"] = "handler"
      logger[metadataKey: "handler.only"] = "h"
      logger.error("first", error: Failure(), metadata: ["from": "call"])
      logger.notice("second")
      let records = try Self.appRecords(telemetry)
      #expect(records.count == 2)
      #expect(records.first?.metadata["from"] == .string("call"))
      #expect(records.first?.metadata["handler.only"] == .string("h"))
      #expect(records.first?.metadata["provider.only"] == .string("p"))
      #expect(records.first?.metadata["exception.message"] == .string("the disk is on fire"))
      #expect(records.first?.metadata["exception.type"]?.description.hasSuffix("Failure") == true)
      #expect(records.first?.metadata["error.message"] == nil)
      #expect(records.first?.metadata["error.type"] == nil)
      #expect(records.last?.metadata["from"] == .string("provider"))
      try telemetry.close()
    }

    @Test("metadata precedence, each source alone and in pairs: handler < provider < call")
    func metadataPrecedence() throws {
      let telemetry = try Self.spool(SimulatedFileSystem())
      let provider = Logger.MetadataProvider { ["from": "provider", "provider.only": "p"] }
      let empty = Logger.MetadataProvider { [:] }
      func logger(_ provider: Logger.MetadataProvider?, handler: Bool) -> Logger {
        var logger = Logger(label: "precedence") {
          StoicLogHandler(label: $0, spool: telemetry, metadataProvider: provider)
        }
        if handler {
          logger[metadataKey: "from"] = "handler"
          logger[metadataKey: "handler.only"] = "h"
        }
        return logger
      }
      let call: Logger.Metadata = ["from": "call", "call.only": "c"]
      logger(nil, handler: false).info("call", metadata: call)
      logger(empty, handler: false).info("call, empty provider", metadata: call)
      logger(nil, handler: true).info("handler and call", metadata: call)
      logger(provider, handler: false).info("provider and call", metadata: call)
      logger(provider, handler: true).info("handler and provider")
      logger(nil, handler: true).info("handler")
      logger(nil, handler: false).info("nothing")
      let records = try Self.appRecords(telemetry)
      let metadata = Dictionary(uniqueKeysWithValues: records.map { ($0.message, $0.metadata) })
      let callOnly: LogMetadata = ["from": .string("call"), "call.only": .string("c")]
      #expect(metadata["call"] == callOnly)
      #expect(metadata["call, empty provider"] == callOnly)
      #expect(
        metadata["handler and call"]
          == callOnly.merging(["handler.only": .string("h")]) { a, _ in a })
      #expect(
        metadata["provider and call"]
          == callOnly.merging(["provider.only": .string("p")]) { a, _ in a })
      #expect(
        metadata["handler and provider"]
          == [
            "from": .string("provider"), "handler.only": .string("h"),
            "provider.only": .string("p"),
          ])
      #expect(metadata["handler"] == ["from": .string("handler"), "handler.only": .string("h")])
      #expect(metadata["nothing"] == [:])
      try telemetry.close()
    }

    @Test("a call's metadata alone: strings, string-convertibles and containers stored as given")
    func callMetadataAlone() throws {
      let telemetry = try Self.spool(SimulatedFileSystem())
      let logger = Logger(label: "alone") {
        StoicLogHandler(label: $0, spool: telemetry, metadataProvider: nil)
      }
      logger.info("strings", metadata: ["a": "1", "b": "two", "c": ""])
      logger.info("mixed", metadata: ["a": "1", "n": .stringConvertible(42), "l": ["x", "y"]])
      let records = try Self.appRecords(telemetry)
      #expect(records.count == 2)
      #expect(
        records.first?.metadata == ["a": .string("1"), "b": .string("two"), "c": .string("")])
      #expect(
        records.last?.metadata
          == [
            "a": .string("1"), "n": .stringConvertible("42"),
            "l": .array([.string("x"), .string("y")]),
          ])
      try telemetry.close()
    }

    /// A value whose description is a byte longer at every call.
    final class Growing: CustomStringConvertible, @unchecked Sendable {
      var calls = 0
      var description: String {
        calls += 1
        return String(repeating: "x", count: 2000 + calls)
      }
    }

    @Test("a call's string-convertible whose description changes is stored as taken once")
    func changingDescription() throws {
      let telemetry = try Self.spool(SimulatedFileSystem())
      let logger = Logger(label: "changing") {
        StoicLogHandler(label: $0, spool: telemetry, metadataProvider: nil)
      }
      let growing = Growing()
      // More than the spool encodes on the stack: it takes the pairs again, into a dictionary.
      logger.info("big", metadata: ["grows": .stringConvertible(growing), "a": "1"])
      let record = try #require(try Self.appRecords(telemetry).first)
      #expect(
        record.metadata["grows"]
          == .stringConvertible(String(repeating: "x", count: 2000 + growing.calls)))
      #expect(record.metadata["a"] == .string("1"))
      try telemetry.close()
    }

    @Test("redacted keys are redacted in a call's metadata handed over as it is")
    func redactionOfCallMetadata() throws {
      let telemetry = try TelemetrySpool.open(
        at: "/spool",
        options: TelemetryOptions(
          logs: LogSpoolOptions(
            maxDelay: .seconds(3600), backgroundMaintenance: false, redactedKeys: ["Token"])),
        fileSystem: SimulatedFileSystem())
      let logger = Logger(label: "redact") {
        StoicLogHandler(label: $0, spool: telemetry, metadataProvider: nil)
      }
      logger.info("login", metadata: ["token": "s3cr3t", "user": "u-1"])
      let record = try #require(try Self.appRecords(telemetry).first)
      #expect(record.metadata == ["token": .string("<redacted>"), "user": .string("u-1")])
      try telemetry.close()
    }

    @Test("value semantics: a copy's level and metadata are its own")
    func valueSemantics() throws {
      let telemetry = try Self.spool(SimulatedFileSystem())
      var original = Logger(label: "copy") { StoicLogHandler(label: $0, spool: telemetry) }
      original[metadataKey: "who"] = "original"
      var copy = original
      copy[metadataKey: "who"] = "copy"
      copy.logLevel = .critical
      original.info("from the original")
      copy.info("filtered in the copy")
      copy.critical("from the copy")
      let records = try Self.appRecords(telemetry)
      #expect(records.map(\.message) == ["from the original", "from the copy"])
      #expect(records.map { $0.metadata["who"] } == [.string("original"), .string("copy")])
      #expect(original.logLevel == .info)
      try telemetry.close()
    }

    @Test("an error-level record through swift-log is durable when the call returns")
    func durable() throws {
      let disk = SimulatedFileSystem()
      let telemetry = try Self.spool(disk)
      let logger = Logger(label: "durable") { StoicLogHandler(label: $0, spool: telemetry) }
      logger.error("synced")
      let survivor = try Self.spool(disk.crashedDurableOnly())
      #expect(try Self.appRecords(survivor).map(\.message) == ["synced"])
      try survivor.close()
      try telemetry.close()
    }

    @Test("the handler exposes the spool's combined event catalog")
    func catalog() {
      #expect(StoicLogHandler.eventCatalog == TelemetrySpool.eventCatalog)
      #expect(StoicLogHandler.eventCatalog.contains(SpoolEvents.recordsDropped))
      #expect(StoicLogHandler.eventCatalog.contains(StoreEvents.journalTruncated))
    }
  }
#endif
