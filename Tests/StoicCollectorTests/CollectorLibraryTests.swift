import Foundation
import StoicForwarding
import StoicStore
import StoicTesting
import Synchronization
import Testing

@testable import StoicCollector

/// The collector as a library, in process: its API, concurrency, connection limit, stop, its
/// journal format and its HTTP parser on hostile bytes.
@Suite("StoicCollector library", .serialized)
struct CollectorLibraryTests {
  static func options(_ directory: String) -> CollectorOptions {
    CollectorOptions(dataDirectory: directory)
  }

  @Test("start, send with the exporter, list what is held, stop (async API)")
  func inProcess() async throws {
    let directory = try CollectorProcess.scratchDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let collector = try await Collector.start(Self.options(directory))
    #expect(collector.host == "127.0.0.1" && collector.port > 0)
    let exporter = try OTLPExporter(
      configuration: OTLPExporterConfiguration(endpoint: collector.baseURL))
    #expect(
      try await exporter.export(CollectorSamples.logs(0..<5), idempotencyKey: "a")
        == .http(status: 200))
    #expect(
      try await exporter.export(CollectorSamples.metrics(value: 9), idempotencyKey: "b")
        == .http(status: 200))
    let records = try collector.archive.logRecords()
    #expect(records.map { CollectorSamples.seq(of: $0.record) } == Array(0..<5))
    #expect(
      records.allSatisfy {
        $0.key == "a" && $0.resource?.stringAttribute("service.instance.id") == "instance-1"
      })
    let metrics = try collector.archive.metrics()
    #expect(metrics.map(\.metric.name) == ["records.written"])
    #expect(collector.stats.batches == 2)
    try await collector.stop()
    try await collector.stop()  // a second stop returns at once
    // Stopped: the port no longer answers.
    #expect(!RawHTTP.canConnect(port: collector.port))
  }

  @Test("traces: stored, deduplicated by key, listed and counted in /stats")
  func traces() async throws {
    let directory = try CollectorProcess.scratchDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let collector = try await Collector.start(Self.options(directory))
    let request = OTLP.ExportTraceServiceRequest(resourceSpans: [
      OTLP.ResourceSpans(
        resource: OTLP.Resource(attributes: [OTLP.KeyValue("service.instance.id", .string("i-1"))]),
        scopeSpans: [
          OTLP.ScopeSpans(
            spans: (1...3).map { index in
              OTLP.Span(
                traceId: Array(repeating: 7, count: 16),
                spanId: Array(repeating: UInt8(index), count: 8),
                name: "span \(index)", kind: 2, startTimeUnixNano: 1, endTimeUnixNano: 2,
                status: OTLP.Span.Status(message: "", code: 1))
            })
        ])
    ])
    for encoding in [OTLPEncoding.protobuf, .json] {
      let exporter = try OTLPExporter(
        configuration: OTLPExporterConfiguration(endpoint: collector.baseURL, encoding: encoding))
      #expect(try await exporter.export(request, idempotencyKey: "t") == .http(status: 200))
    }
    let spans = try collector.archive.spans()
    #expect(spans.map(\.span.name) == ["span 1", "span 2", "span 3"])
    #expect(spans.allSatisfy { $0.key == "t" && $0.span.status?.code == 1 })
    #expect(collector.stats.spans == 3 && collector.stats.traceBatches == 1)
    #expect(collector.stats.duplicatesSuppressed == 1)
    #expect(collector.stats.producers["i-1"]?.spans == 3)
    try await collector.stop()
  }

  @Test("concurrent requests with one key: one is stored, the others wait for it and replay")
  func concurrentSameKey() throws {
    let directory = try CollectorProcess.scratchDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let collector = try Collector.start(Self.options(directory))
    defer { try? collector.stop() }
    let request = RawHTTP.post(
      "/v1/logs", body: CollectorSamples.logs(0..<50).encoded(as: .protobuf),
      headers: [("Content-Type", "application/x-protobuf"), ("Idempotency-Key", "same")])
    let results = SleepingLock<[(Int, Bool)]>([])
    let group = DispatchGroup()
    let port = collector.port
    for _ in 0..<8 {
      group.enter()
      PosixThread.detach {
        defer { group.leave() }
        let response = try? RawHTTP.exchange(port: port, request)
        results.withLock {
          $0.append((response?.status ?? -1, response?.header("Idempotent-Replayed") == "true"))
        }
      }
    }
    #expect(group.wait(timeout: .now() + 30) == .success)
    let all = results.withLock { $0 }
    #expect(all.count == 8 && all.allSatisfy { $0.0 == 200 })
    #expect(all.filter { !$0.1 }.count == 1, "exactly one was stored")
    #expect(collector.stats.batches == 1)
    #expect(collector.stats.logRecords == 50)
    #expect(collector.stats.duplicatesSuppressed == 7)
  }

  @Test("connections beyond the limit are answered 503; stop closes idle connections promptly")
  func connectionLimitAndStop() throws {
    let directory = try CollectorProcess.scratchDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    var options = Self.options(directory)
    options.limits.maxConnections = 2
    let collector = try Collector.start(options)
    let first = try RawHTTP.connect(port: collector.port)
    let second = try RawHTTP.connect(port: collector.port)
    defer {
      close(first)
      close(second)
    }
    // Both are served (one request each keeps them counted as open connections).
    for connection in [first, second] {
      PosixSocket.send(connection, Array("GET /stats HTTP/1.1\r\n\r\n".utf8))
      #expect(RawHTTP.readResponse(connection)?.status == 200)
    }
    let third = try RawHTTP.exchange(
      port: collector.port, Array("GET /stats HTTP/1.1\r\n\r\n".utf8))
    #expect(third.status == 503)
    let start = ContinuousClock.now
    try collector.stop()
    #expect(ContinuousClock.now - start < .seconds(3))
    #expect(RawHTTP.waitForClose(first, timeout: .seconds(2)).closed)
    #expect(RawHTTP.waitForClose(second, timeout: .seconds(2)).closed)
  }

  @Test("options that cannot work are refused before anything is bound")
  func invalidOptions() throws {
    let directory = try CollectorProcess.scratchDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    var options = Self.options(directory)
    options.host = "192.0.2.1"
    #expect {
      try Collector.start(options)
    } throws: { error in
      if case .tokenRequired = error as? CollectorError { return true }
      return false
    }
    options.host = "localhost"
    #expect {
      try Collector.start(options)
    } throws: { error in
      if case .invalidHost = error as? CollectorError { return true }
      return false
    }
    options = Self.options(directory)
    options.limits.maxConnections = 0
    #expect(throws: CollectorError.self) { try Collector.start(options) }
    // A second collector on the same directory: the journal is locked.
    let running = try Collector.start(Self.options(directory))
    defer { try? running.stop() }
    #expect {
      try Collector.start(Self.options(directory))
    } throws: { error in
      if case .store(let store) = error as? CollectorError { return store.code == .locked }
      return false
    }
  }

  @Test("journal entries round-trip, and damaged ones decode to nothing, never a crash")
  func entryFormat() {
    let batch = CollectorBatch(
      signal: .metrics, key: "key-1", status: 200, rejected: 3, message: "msg é",
      bodyChecksum: 0xDEAD_BEEF, recordCount: 7,
      producers: [.init(name: "a", records: 4), .init(name: "b", records: 3)],
      body: [1, 2, 3, 4, 5])
    var compressed = batch
    compressed.body = [0x1F, 0x8B, 8, 0]
    compressed.bodyIsGzip = true
    #expect(compressed.bodyCompression == .gzip)
    var zstd = batch
    zstd.body = [0x28, 0xB5, 0x2F, 0xFD]
    zstd.bodyCompression = .zstd
    let entries: [CollectorEntry] = [
      .batch(batch), .duplicate(signal: .logs, key: "k"), .batch(compressed),
      .conflict(signal: .metrics, key: "k2"), .batch(zstd),
    ]
    // A compressed body is marked as such (version 2, its compression in byte 3), so no reader
    // takes it for protobuf.
    #expect(CollectorEntry.batch(compressed).encoded()[1...3] == [2, 2, 1])
    #expect(CollectorEntry.batch(zstd).encoded()[1...3] == [2, 2, 2])
    #expect(CollectorEntry.batch(batch).encoded()[1...3] == [1, 2, 0])
    // A compressed entry whose compression byte is unknown, or none, is not an entry.
    for code: UInt8 in [0, 3, 255] {
      var bytes = CollectorEntry.batch(zstd).encoded()
      bytes[3] = code
      #expect(bytes.withUnsafeBytes { CollectorEntry.decode($0, withBody: true) } == nil)
    }
    for entry in entries {
      let bytes = entry.encoded()
      #expect(bytes.withUnsafeBytes { CollectorEntry.decode($0, withBody: true) } == entry)
      // Every truncation is refused.
      for length in 0..<bytes.count {
        #expect(
          bytes.prefix(length).withUnsafeBytes { CollectorEntry.decode($0, withBody: true) } == nil)
      }
    }
    var random = SplitMix64(seed: 3)
    for _ in 0..<5000 {
      var bytes = entries[Int.random(in: 0..<entries.count, using: &random)].encoded()
      let index = Int.random(in: 0..<bytes.count, using: &random)
      bytes[index] = UInt8.random(in: 0...255, using: &random)
      _ = bytes.withUnsafeBytes { CollectorEntry.decode($0, withBody: true) }
    }
  }

  @Test("a journal entry that does not decode is counted and skipped; the rest is kept")
  func unreadableEntries() throws {
    let directory = try CollectorProcess.scratchDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    var archive = try CollectorArchive.open(directory: directory)
    _ = try archive.store(
      .logs, key: "k1", body: CollectorSamples.logs(0..<2).encoded(as: .protobuf), recordCount: 2,
      producers: [.init(name: "p", records: 2)])
    try archive.close()
    let journal = try Journal.open(directory: directory, fileSystem: PosixFileSystem())
    try journal.append([0x09, 0x09, 0x09])
    try journal.close()
    archive = try CollectorArchive.open(directory: directory)
    defer { try? archive.close() }
    #expect(archive.stats.unreadableEntries == 1)
    #expect(archive.stats.batches == 1)
    guard
      case .replayed = try archive.store(
        .logs, key: "k1", body: CollectorSamples.logs(0..<2).encoded(as: .protobuf), recordCount: 2,
        producers: [])
    else {
      Issue.record("the key stored before the damaged entry was forgotten")
      return
    }
    #expect(try archive.logRecords().count == 2)
  }

  @Test("the HTTP head parser: requests it accepts, and random bytes it survives")
  func headParser() throws {
    let limits = CollectorLimits()
    let good = Array(
      "POST /v1/logs?x=1 HTTP/1.1\r\nHost: a\r\nContent-Length: 12\r\nConnection: close\r\n\r\n"
        .utf8)
    var scanner = HTTPRequestParser.Scanner(limits: limits)
    // Fed a byte at a time, the end is found exactly once the blank line is complete.
    var fed: [UInt8] = []
    var end: Int? = nil
    for byte in good {
      fed.append(byte)
      end = try scanner.headEnd(in: fed)
      if end != nil { break }
    }
    #expect(end == good.count)
    let head = try HTTPRequestParser.parse(good, end: good.count, limits: limits)
    #expect(head.method == "POST" && head.path == "/v1/logs" && head.minorVersion == 1)
    #expect(head.contentLength == 12 && !head.keepAlive)
    #expect(head.header("host") == "a")

    var random = SplitMix64(seed: 0x4777)
    let alphabet = Array("GET /POST HTTP/1.01\r\n:Content-Length: 9\t ".utf8) + [0, 0xFF, 0x7F]
    for _ in 0..<5000 {
      var bytes = (0..<Int.random(in: 0...120, using: &random)).map { _ in
        alphabet[Int.random(in: 0..<alphabet.count, using: &random)]
      }
      if Bool.random(using: &random) { bytes += Array("\r\n\r\n".utf8) }
      var scanner = HTTPRequestParser.Scanner(
        limits: CollectorLimits(maxRequestLineBytes: 40, maxHeadBytes: 100))
      guard let end = try? scanner.headEnd(in: bytes) else { continue }
      _ = try? HTTPRequestParser.parse(bytes, end: end, limits: limits)
    }
  }

  /// Found by fuzzing (`collector-http`): a request line of exactly the limit whose CR arrived
  /// in one read and its LF in the next was refused (414), counted with the CR, while the same
  /// bytes arriving at once were accepted.
  @Test("a request line of exactly the limit is accepted however its CRLF is split")
  func requestLineAtTheLimitSplitAcrossReads() throws {
    let limits = CollectorLimits(maxRequestLineBytes: 32)
    let line = "GET /" + String(repeating: "a", count: 32 - "GET / HTTP/1.1".count) + " HTTP/1.1"
    #expect(line.utf8.count == 32)
    let request = Array((line + "\r\nHost: a\r\n\r\n").utf8)
    for split in [line.utf8.count + 1, line.utf8.count, 1] {
      var scanner = HTTPRequestParser.Scanner(limits: limits)
      var fed: [UInt8] = []
      var end: Int? = nil
      var offset = 0
      while end == nil, offset < request.count {
        let next = split == 1 ? offset + 1 : offset == 0 ? split : request.count
        fed += request[offset..<min(next, request.count)]
        offset = min(next, request.count)
        end = try scanner.headEnd(in: fed)
      }
      #expect(end == request.count, "first read of \(split) bytes")
    }
    var scanner = HTTPRequestParser.Scanner(limits: limits)
    #expect(throws: HTTPRequestParser.Refusal.self) {
      _ = try scanner.headEnd(in: Array((line + "b\r").utf8))
    }
  }

  @Test("only loopback addresses are served without a token")
  func loopbackAddresses() {
    for host in ["127.0.0.1", "127.255.0.9", "::1", "0:0:0:0:0:0:0:1"] {
      #expect(PosixSocket.isLoopback(host), "\(host)")
    }
    // The wildcard addresses, another host's, and an IPv4-mapped loopback (served only with a
    // token: it is not taken for loopback).
    for host in ["0.0.0.0", "::", "192.0.2.1", "10.0.0.1", "::ffff:127.0.0.1", "::2", "128.0.0.1"] {
      #expect(!PosixSocket.isLoopback(host), "\(host)")
    }
  }

  #if os(Linux)
    /// The listening sockets of this process's network namespace on `port`, as
    /// `/proc/net/tcp` and `tcp6` name their local addresses (hex, as the kernel stores them).
    static func listeners(port: UInt16) throws -> [String] {
      let portHex = String(port, radix: 16, uppercase: true)
      let suffix = ":" + String(repeating: "0", count: 4 - portHex.count) + portHex
      var found: [String] = []
      for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
        guard let text = try? String(contentsOfFile: table, encoding: .utf8) else { continue }
        for line in text.split(separator: "\n").dropFirst() {
          let fields = line.split(separator: " ")
          // local_address is field 1, the state field 3 (0A: listening).
          guard fields.count > 3, fields[1].hasSuffix(suffix), fields[3] == "0A" else { continue }
          found.append(String(fields[1]))
        }
      }
      return found
    }

    @Test("by default the collector listens on 127.0.0.1 only, as the kernel reports it")
    func listensOnLoopbackOnly() throws {
      let directory = try CollectorProcess.scratchDirectory()
      defer { try? FileManager.default.removeItem(atPath: directory) }
      let collector = try Collector.start(Self.options(directory))
      defer { try? collector.stop() }
      let listeners = try Self.listeners(port: collector.port)
      let portHex = String(collector.port, radix: 16, uppercase: true)
      let loopback = "0100007F:" + String(repeating: "0", count: 4 - portHex.count) + portHex
      #expect(listeners == [loopback])
    }
  #endif
}
