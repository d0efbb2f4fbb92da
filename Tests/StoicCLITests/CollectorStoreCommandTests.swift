import Foundation
import StoicForwarding
import StoicStore
import StoicTelemetry
import Testing

@testable import StoicCollector

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// `stoic inspect` and `stoic verify` on the example collector's `--data` directory: told
/// apart from an outbox, its batches listed by key and producer with their replays, its
/// conflicts and its unreadable entries, read the same way whether the collector runs (through
/// the copy-on-write overlay, its lock left alone) or has stopped, and every text from the
/// network escaped on the terminal.
@Suite("stoic on the collector's store", .serialized)
struct CollectorStoreCommandTests {
  /// A producer name a client chose: a line break that would forge a line, and an OSC title.
  static let hostileProducer = "evil\u{1B}]0;title\u{07}\n2026-01-01 critical FORGED"

  /// A logs request of `count` records from `instance`.
  static func logs(_ count: Int, instance: String, text: String = "record")
    -> OTLP.ExportLogsServiceRequest
  {
    OTLP.ExportLogsServiceRequest(resourceLogs: [
      OTLP.ResourceLogs(
        resource: OTLP.Resource(attributes: [
          OTLP.KeyValue("service.instance.id", .string(instance))
        ]),
        scopeLogs: [
          OTLP.ScopeLogs(
            scope: OTLP.InstrumentationScope(name: "test"),
            logRecords: (0..<count).map { index in
              OTLP.LogRecord(
                timeUnixNano: 1_700_000_000_000_000_000 + UInt64(index), severityNumber: .info,
                severityText: "info", body: .string("\(text) \(index)"))
            })
        ])
    ])
  }

  /// A metrics request with one data point from `instance`.
  static func metrics(instance: String) -> OTLP.ExportMetricsServiceRequest {
    OTLP.ExportMetricsServiceRequest(resourceMetrics: [
      OTLP.ResourceMetrics(
        resource: OTLP.Resource(attributes: [
          OTLP.KeyValue("service.instance.id", .string(instance))
        ]),
        scopeMetrics: [
          OTLP.ScopeMetrics(metrics: [
            OTLP.Metric(
              name: "requests",
              data: .sum(
                OTLP.Sum(dataPoints: [OTLP.NumberDataPoint(timeUnixNano: 1, value: .int(3))])))
          ])
        ])
    ])
  }

  /// Sends what every test inspects: two keyed log batches (one from a hostile producer), a
  /// replay of the first, a conflict on it, and a metrics batch without a key.
  /// A collector started on loopback with its store in `directory`.
  static func started(_ directory: String) async throws -> Collector {
    try await Collector.start(CollectorOptions(dataDirectory: directory))
  }

  @discardableResult
  static func send(to collector: Collector) async throws -> Collector {
    let exporter = try OTLPExporter(
      configuration: OTLPExporterConfiguration(endpoint: collector.baseURL))
    #expect(
      try await exporter.export(logs(5, instance: "app-1"), idempotencyKey: "key-one")
        == .http(status: 200))
    #expect(
      try await exporter.export(
        logs(3, instance: hostileProducer, text: "evil\u{1B}[31m\nFORGED"),
        idempotencyKey: "key-two")
        == .http(status: 200))
    #expect(
      try await exporter.export(logs(5, instance: "app-1"), idempotencyKey: "key-one")
        == .http(status: 200))
    #expect(
      try await exporter.export(
        logs(5, instance: "app-1", text: "other"), idempotencyKey: "key-one")
        == .http(status: 422))
    // Without a key: the exporter always sends one, so this goes as a plain POST.
    var request = URLRequest(url: try #require(URL(string: collector.baseURL + "/v1/metrics")))
    request.httpMethod = "POST"
    request.setValue("application/x-protobuf", forHTTPHeaderField: "Content-Type")
    request.httpBody = Data(metrics(instance: "app-2").encoded(as: .protobuf))
    let (_, response) = try await URLSession.shared.data(for: request)
    #expect((response as? HTTPURLResponse)?.statusCode == 200)
    return collector
  }

  /// Whether `line` holds a control character (C0, DEL, C1).
  static func hasControl(_ line: Substring) -> Bool {
    line.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }
  }

  /// What `inspect` and `verify` must show of the store `send(to:)` filled, `live` or not.
  static func checkCommands(_ directory: String, live: Bool) throws {
    let inspect = try StoicProcess.run(["inspect", directory])
    #expect(inspect.status == 0, "\(inspect)")
    let lines = inspect.output.split(separator: "\n")
    #expect(lines.first?.hasSuffix("  collector") == true, "\(inspect)")
    #expect(!inspect.output.contains("malformed key"), "\(inspect)")
    #expect(!inspect.output.contains("outbox"), "\(inspect)")
    #expect(
      inspect.output.contains(
        "3 batches (2 logs, 1 metrics), 8 log records, 1 data point, 1 duplicates suppressed, "
          + "1 key conflict, 0 unreadable"), "\(inspect)")
    #expect(inspect.output.contains("key-one"), "\(inspect)")
    #expect(inspect.output.contains("CONFLICT ON KEY"), "\(inspect)")
    #expect(inspect.output.contains("app-1 5"), "\(inspect)")
    for line in lines {
      #expect(!hasControl(line), "\(line.debugDescription)")
      #expect(!line.hasPrefix("2026-01-01 critical FORGED"), "a forged line: \(inspect)")
    }
    #expect(inspect.output.contains("evil\\x1b]0;title\\x07\\n2026-01-01"), "\(inspect)")
    let held = lines.contains { $0.hasPrefix("  lock") && $0.contains("locked by") }
    #expect(held == live, "\(inspect)")

    let json = try StoicProcess.run(["inspect", "--json", directory])
    #expect(json.status == 0, "\(json)")
    #expect(!json.output.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 })
    let document = try json.document()
    #expect(document["kind"] as? String == "collector")
    let collector = try #require(document["collector"] as? [String: Any], "\(json)")
    let stats = try #require(collector["stats"] as? [String: Any])
    #expect(stats["batches"] as? Int == 3)
    #expect(stats["logRecords"] as? Int == 8)
    #expect(stats["dataPoints"] as? Int == 1)
    #expect(stats["duplicatesSuppressed"] as? Int == 1)
    #expect(stats["keyConflicts"] as? Int == 1)
    let producers = try #require(stats["producers"] as? [String: [String: Int]])
    #expect(producers["app-1"]?["logRecords"] == 5)
    #expect(producers["app-1"]?["duplicatesSuppressed"] == 1)
    #expect(producers[hostileProducer]?["logRecords"] == 3, "the name round-trips")
    #expect(producers["app-2"]?["dataPoints"] == 1)
    let batches = try #require(collector["batches"] as? [[String: Any]])
    #expect(batches.map { $0["key"] as? String } == ["key-one", "key-two", nil])
    #expect(batches.map { $0["replays"] as? Int } == [1, 0, 0])
    #expect(batches.map { $0["signal"] as? String } == ["logs", "logs", "metrics"])
    let conflicts = try #require(collector["conflicts"] as? [[String: Any]])
    #expect(conflicts.map { $0["key"] as? String } == ["key-one"])

    let verify = try StoicProcess.run(["verify", directory])
    #expect(verify.status == 0, "\(verify)")
    #expect(verify.output.contains(": collector, "), "\(verify)")
    #expect(verify.output.contains("3 batches"), "\(verify)")
    let verifyJSON = try StoicProcess.run(["verify", "--json", directory]).document()
    #expect(verifyJSON["kind"] as? String == "collector")
    #expect(verifyJSON["status"] as? String == "clean")

    // Its log records, through query and tail, each on one line, oldest stored first.
    let query = try StoicProcess.run(["query", directory])
    #expect(query.status == 0, "\(query)")
    let records = query.output.split(separator: "\n")
    #expect(records.count == 8, "\(query)")
    #expect(records.first?.hasSuffix("info    test: record 0") == true, "\(query)")
    #expect(records.allSatisfy { !hasControl($0) }, "\(query)")
    #expect(records.last?.contains("evil\\x1b[31m\\nFORGED 2") == true, "\(query)")
    let grep = try StoicProcess.run(["query", "--grep", "record 4", directory])
    #expect(grep.output.split(separator: "\n").count == 1, "\(grep)")
    let queryJSON = try StoicProcess.run(["query", "--json", directory])
    let objects = try queryJSON.output.split(separator: "\n").map { line in
      try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }
    #expect(objects.map { $0["spool_sequence"] as? Int } == Array(1...8).map { Optional($0) })
    #expect(objects.last?["message"] as? String == "evil\u{1B}[31m\nFORGED 2")
    let tail = try StoicProcess.run(["tail", "-n", "2", directory])
    #expect(tail.status == 0, "\(tail)")
    #expect(tail.output.split(separator: "\n").count == 2, "\(tail)")
    #expect(tail.output.contains("FORGED 1") && tail.output.contains("FORGED 2"), "\(tail)")

    // `--as journal` still reads it as a bare journal.
    let bare = try StoicProcess.run(["inspect", "--as", "journal", "--json", directory])
    #expect(try bare.document()["kind"] as? String == "journal", "\(bare)")
  }

  @Test("a running collector's store is read live, through the overlay, as a collector's")
  func liveCollector() async throws {
    try await StoicProcess.withAsyncScratch { scratch in
      let directory = scratch + "/data"
      let collector = try await Self.send(to: Self.started(directory))
      try Self.checkCommands(directory, live: true)
      // Read live, nothing written: the collector goes on storing, and its own counts are
      // those the tool rebuilt.
      let exporter = try OTLPExporter(
        configuration: OTLPExporterConfiguration(endpoint: collector.baseURL))
      #expect(
        try await exporter.export(Self.logs(2, instance: "app-1"), idempotencyKey: "key-three")
          == .http(status: 200))
      #expect(collector.stats.batches == 4)
      let after = try StoicProcess.run(["inspect", "--json", directory]).document()
      let stats = (after["collector"] as? [String: Any])?["stats"] as? [String: Any]
      #expect(stats?["batches"] as? Int == 4)
      try await collector.stop()
    }
  }

  @Test("a stopped collector's store reads the same, and opens for the collector again")
  func stoppedCollector() async throws {
    try await StoicProcess.withAsyncScratch { scratch in
      let directory = scratch + "/data"
      try await Self.send(to: Self.started(directory)).stop()
      try Self.checkCommands(directory, live: false)
      let archive = try CollectorArchive.open(directory: directory)
      #expect(archive.stats.batches == 3)
      try archive.close()
    }
  }

  @Test("an entry that does not decode is a warning, kept and counted, not damage")
  func unreadableEntry() async throws {
    try await StoicProcess.withAsyncScratch { scratch in
      let directory = scratch + "/data"
      try await Self.send(to: Self.started(directory)).stop()
      let journal = try Journal.open(directory: directory, fileSystem: PosixFileSystem())
      _ = try journal.append([1, 1, 1, 0, 0xFF])
      try journal.close()
      let verify = try StoicProcess.run(["verify", directory])
      #expect(verify.status == 0, "\(verify)")
      #expect(verify.output.contains("record 6 is not a collector entry"), "\(verify)")
      let document = try StoicProcess.run(["inspect", "--json", directory]).document()
      let stored = try #require(document["collector"] as? [String: Any])
      #expect(stored["unreadable"] as? [Int] == [6])
      #expect((stored["stats"] as? [String: Any])?["unreadableEntries"] as? Int == 1)
    }
  }

  @Test(
    "one detection for every command: more unreadable entries than readable, still a collector's")
  func oneDetection() async throws {
    try await StoicProcess.withAsyncScratch { scratch in
      let directory = scratch + "/data"
      try await Self.send(to: Self.started(directory)).stop()
      let journal = try Journal.open(directory: directory, fileSystem: PosixFileSystem())
      for _ in 0..<12 { _ = try journal.append([1, 1, 1, 0, 0xFF]) }
      try journal.close()
      let inspect = try StoicProcess.run(["inspect", "--json", directory]).document()
      #expect(inspect["kind"] as? String == "collector")
      let query = try StoicProcess.run(["query", "--json", directory])
      #expect(query.status == 0, "\(query)")
      let queried = query.output.split(separator: "\n").count
      #expect(queried == 8, "\(query)")
      let tail = try StoicProcess.run(["tail", "-n", "100", "--json", directory])
      #expect(tail.output.split(separator: "\n").count == queried, "\(tail)")
      // --as everywhere: forced the same, refused for what query cannot read.
      let forced = try StoicProcess.run(["query", "--json", "--as", "collector", directory])
      #expect(forced.output == query.output)
      let refused = try StoicProcess.run(["query", "--as", "outbox", directory])
      #expect(refused.status == 64, "\(refused)")
      let tailRefused = try StoicProcess.run(["tail", "--as", "atomic-file", directory])
      #expect(tailRefused.status == 64, "\(tailRefused)")
    }
  }

  @Test("a healthy store whose first batch is over 1 MiB: verify and inspect pass, compact works")
  func largeFirstBatch() async throws {
    try await StoicProcess.withAsyncScratch { scratch in
      let directory = scratch + "/data"
      let collector = try await Self.started(directory)
      var configuration = OTLPExporterConfiguration(endpoint: collector.baseURL)
      configuration.compression = .none
      let exporter = try OTLPExporter(configuration: configuration)
      let big = Self.logs(1, instance: "app-1", text: String(repeating: "x", count: 2 << 20))
      #expect(try await exporter.export(big, idempotencyKey: "big") == .http(status: 200))
      // Alone in the store: no later entry for a salvaging read to tell the kind by.
      try await collector.stop()
      let verify = try StoicProcess.run(["verify", directory])
      #expect(verify.status == 0, "\(verify)")
      let inspect = try StoicProcess.run(["inspect", "--json", directory])
      #expect(inspect.status == 0, "\(inspect)")
      #expect(try inspect.document()["kind"] as? String == "collector")
      let compact = try StoicProcess.run(["compact", directory])
      #expect(compact.status == 0, "\(compact)")
      #expect(try StoicProcess.run(["verify", directory]).status == 0)
    }
  }

  @Test(
    "verify checks each batch's body: not gzip or zstd though marked so, or not its CRC, is damage"
  )
  func bodyChecks() async throws {
    try await StoicProcess.withAsyncScratch { scratch in
      let directory = scratch + "/data"
      try await Self.send(to: Self.started(directory)).stop()
      let clean = try StoicProcess.run(["verify", directory])
      #expect(clean.status == 0, "\(clean)")
      let request = Self.logs(1, instance: "app-9").encoded(as: .protobuf)
      let notGzip = CollectorBatch(
        signal: .logs, key: "not-gzip", status: 200, rejected: 0, message: "",
        bodyChecksum: CRC32C.checksum(request), recordCount: 1, producers: [], body: request,
        bodyCompression: .gzip)
      var wrongCRC = notGzip
      wrongCRC.key = "wrong-crc"
      wrongCRC.bodyIsGzip = false
      wrongCRC.bodyChecksum ^= 1
      var notZstd = notGzip
      notZstd.key = "not-zstd"
      notZstd.bodyCompression = .zstd
      let journal = try Journal.open(directory: directory, fileSystem: PosixFileSystem())
      _ = try journal.append(CollectorEntry.batch(notGzip).encoded())
      _ = try journal.append(CollectorEntry.batch(wrongCRC).encoded())
      _ = try journal.append(CollectorEntry.batch(notZstd).encoded())
      try journal.close()
      let verify = try StoicProcess.run(["verify", directory])
      #expect(verify.status == 1, "\(verify)")
      #expect(verify.output.contains("batch 6: its body is marked gzip but does not decompress"))
      #expect(verify.output.contains("batch 7: its body does not match the CRC32C stored with it"))
      #expect(verify.output.contains("batch 8: its body is marked zstd but does not decompress"))
    }
  }

  @Test("a spool's own log journal is read as a journal by inspect and verify, never as an outbox")
  func spoolLogJournal() throws {
    try StoicProcess.withScratch { scratch in
      let spool = try TelemetrySpool.open(at: scratch + "/spool")
      for index in 0..<300 {
        spool.logs.log(level: .info, label: "app", message: "record \(index)")
      }
      try spool.close()
      let inspect = try StoicProcess.run(["inspect", scratch + "/spool/logs"])
      #expect(inspect.status == 0, "\(inspect)")
      #expect(!inspect.output.contains("malformed"), "\(inspect)")
      let document = try StoicProcess.run(["inspect", "--json", scratch + "/spool/logs"]).document()
      #expect(document["kind"] as? String == "journal")
      let verify = try StoicProcess.run(["verify", scratch + "/spool/logs"])
      #expect(verify.status == 0, "\(verify)")
      #expect(!verify.output.contains("malformed"), "\(verify)")
    }
  }

  @Test("tail -f follows a running collector's store: each record stored since, once, in order")
  func followLiveCollector() async throws {
    try await StoicProcess.withAsyncScratch { scratch in
      let directory = scratch + "/data"
      let collector = try await Self.send(to: Self.started(directory))
      let outputPath = scratch + "/tail.out"
      _ = FileManager.default.createFile(atPath: outputPath, contents: nil)
      let output = try FileHandle(forWritingTo: URL(fileURLWithPath: outputPath))
      defer { try? output.close() }
      let tail = Process()
      tail.executableURL = StoicProcess.executable
      tail.arguments = ["tail", "-f", "-n", "2", "--json", directory]
      tail.standardOutput = output
      tail.standardError = FileHandle.nullDevice
      try tail.run()
      defer {
        kill(tail.processIdentifier, SIGKILL)
        tail.waitUntilExit()
      }
      let exporter = try OTLPExporter(
        configuration: OTLPExporterConfiguration(endpoint: collector.baseURL))
      for batch in 0..<4 {
        try await Task.sleep(for: .milliseconds(300))
        #expect(
          try await exporter.export(
            Self.logs(3, instance: "app-3", text: "later \(batch)"),
            idempotencyKey: "later-\(batch)") == .http(status: 200))
      }
      // 2 shown at start, then 12 stored since: wait for them (a loaded machine is slower).
      var lines: [[String: Any]] = []
      for _ in 0..<100 where lines.count < 14 {
        try await Task.sleep(for: .milliseconds(200))
        let text = String(
          decoding: FileManager.default.contents(atPath: outputPath) ?? Data(), as: UTF8.self)
        lines = text.split(separator: "\n").compactMap {
          try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
      }
      #expect(tail.isRunning, "tail -f stopped")
      let sequences = lines.compactMap { $0["spool_sequence"] as? Int }
      #expect(sequences == Array(7...20), "\(lines)")
      #expect(lines.last?["message"] as? String == "later 3 2")
      try await collector.stop()
    }
  }
}
