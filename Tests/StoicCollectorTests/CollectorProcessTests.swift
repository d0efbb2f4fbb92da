import Foundation
import StoicForwarding
import StoicStore
import Testing

@testable import StoicCollector

/// The collector as a real child process on 127.0.0.1 with an ephemeral port: what it
/// answers to good and bad requests, its limits, its token, its durability across SIGKILL,
/// and its injected faults.
@Suite("stoic-collector as a process", .serialized)
struct CollectorProcessTests {
  static func protobufPost(
    _ request: some OTLPMessage, path: String = "/v1/logs", key: String? = nil, close: Bool = false
  ) -> [UInt8] {
    var headers = [("Content-Type", "application/x-protobuf")]
    if let key { headers.append(("Idempotency-Key", key)) }
    return RawHTTP.post(path, body: request.encoded(as: .protobuf), headers: headers, close: close)
  }

  @Test(
    "serves both encodings, gzip, zstd or neither, counts per producer, stops cleanly on SIGTERM")
  func servesAndStops() async throws {
    let directory = try CollectorProcess.scratchDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let collector = try CollectorProcess(dataDirectory: directory)
    var sent = 0
    for encoding in OTLPEncoding.allCases {
      for compression in [OTLPCompression.none, .gzip, .zstd] {
        let exporter = try OTLPExporter(
          configuration: OTLPExporterConfiguration(
            endpoint: collector.baseURL, encoding: encoding, compression: compression))
        let logs = CollectorSamples.logs(sent..<(sent + 10), instance: "a")
        #expect(
          try await exporter.export(logs, idempotencyKey: "logs-\(sent)") == .http(status: 200))
        let metrics = CollectorSamples.metrics(value: Int64(sent), instance: "b")
        #expect(
          try await exporter.export(metrics, idempotencyKey: "metrics-\(sent)")
            == .http(status: 200))
        sent += 10
      }
    }
    let stats = try collector.stats()
    #expect(stats["batches"] as? Int == 12)
    #expect(stats["logRecords"] as? Int == 60)
    #expect(stats["dataPoints"] as? Int == 6)
    #expect(stats["duplicatesSuppressed"] as? Int == 0)
    let producers = try #require(stats["producers"] as? [String: [String: Int]])
    #expect(producers["a"]?["logRecords"] == 60)
    #expect(producers["b"]?["dataPoints"] == 6)
    #expect(collector.terminate() == 0)
    #expect(collector.stdout.contains("stopped: batches=12 duplicates_suppressed=0"))
    // The journal was closed: another process can open it, and it holds every record once.
    let archive = try CollectorArchive.open(directory: directory)
    defer { try? archive.close() }
    let seqs = try archive.logRecords().compactMap { CollectorSamples.seq(of: $0.record) }
    #expect(seqs.sorted() == Array(0..<60))
    #expect(try archive.metrics().count == 6)
    // A protobuf request is stored in the compression it came in (identity, gzip, zstd), a
    // JSON one re-encoded uncompressed; every body reads back to its CRC.
    var compressions: [CollectorBodyCompression] = []
    try archive.forEachEntry { _, _, entry in
      if case .batch(let batch) = entry { compressions.append(batch.bodyCompression) }
    }
    let protobuf: [CollectorBodyCompression] = [.none, .none, .gzip, .gzip, .zstd, .zstd]
    let json = [CollectorBodyCompression](repeating: .none, count: 6)
    let expected = OTLPEncoding.allCases.flatMap { $0 == .protobuf ? protobuf : json }
    #expect(compressions == expected)
    var problems: [String] = []
    try archive.checkBodies(limit: 1 << 20) { _, problem in problems.append(problem) }
    #expect(problems.isEmpty)
  }

  @Test("bad input is answered, never a crash, and never echoed")
  func badInput() throws {
    let directory = try CollectorProcess.scratchDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let collector = try CollectorProcess(
      dataDirectory: directory,
      arguments: [
        "--max-body-bytes", "4096", "--max-decoded-body-bytes", "65536",
        "--max-request-line-bytes", "256", "--max-headers", "10",
      ])
    let marker = "ECHO-MARKER-\(UUID().uuidString)"
    let port = collector.port
    func status(_ request: [UInt8]) throws -> RawHTTP.Response {
      try RawHTTP.exchange(port: port, request)
    }
    // Malformed HTTP.
    #expect(try status(Array("GARBAGE\r\n\r\n".utf8)).status == 400)
    #expect(try status(Array("GET /stats HTTP/1.1\r\nBad Header\r\n\r\n".utf8)).status == 400)
    #expect(try status(Array("GET /stats HTTP/1.1\r\n Folded: x\r\n\r\n".utf8)).status == 400)
    #expect(try status(Array("GET stats HTTP/1.1\r\n\r\n".utf8)).status == 400)
    #expect(try status(Array("GET /stats HTTP/2.0\r\n\r\n".utf8)).status == 505)
    #expect(
      try status(
        Array("POST /v1/logs HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nx".utf8)
      )
      .status == 400)
    #expect(
      try status(Array("POST /v1/logs HTTP/1.1\r\nContent-Length: -1\r\n\r\n".utf8)).status == 400)
    #expect(
      try status(
        Array("POST /v1/logs HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n".utf8)
      )
      .status == 501)
    #expect(
      try status(Array(("GET /" + String(repeating: "a", count: 300) + " HTTP/1.1\r\n\r\n").utf8))
        .status == 414)
    let manyHeaders = (0..<20).map { "X-\($0): y\r\n" }.joined()
    #expect(try status(Array("GET /stats HTTP/1.1\r\n\(manyHeaders)\r\n".utf8)).status == 431)
    // Unknown path, wrong method.
    #expect(try status(Array("GET /nope HTTP/1.1\r\n\r\n".utf8)).status == 404)
    #expect(try status(Array("GET /v1/logs HTTP/1.1\r\n\r\n".utf8)).status == 405)
    // Undecodable OTLP: 400 with a message, in the request's encoding, without the body.
    let garbage = Array(marker.utf8) + [0xFF, 0x00, 0x01]
    for (contentType, path) in [
      ("application/x-protobuf", "/v1/logs"), ("application/json", "/v1/logs"),
      ("application/json", "/v1/metrics"), ("application/x-protobuf", "/v1/metrics"),
    ] {
      let response = try status(
        RawHTTP.post(path, body: garbage, headers: [("Content-Type", contentType)]))
      #expect(response.status == 400)
      #expect(response.header("Content-Type") == contentType)
      let encoding = try #require(OTLPEncoding(contentType: contentType))
      let message = try OTLP.Status(decoding: response.body, as: encoding).message
      #expect(message.contains("is not an Export"))
      #expect(!String(decoding: response.body, as: UTF8.self).contains(marker))
    }
    #expect(
      try status(RawHTTP.post("/v1/logs", body: garbage, headers: [("Content-Type", "text/plain")]))
        .status == 415)
    // Too large as sent.
    #expect(
      try status(
        RawHTTP.post(
          "/v1/logs", body: [UInt8](repeating: 0, count: 5000),
          headers: [("Content-Type", "application/x-protobuf")])
      ).status == 413)
    // For each compression: a body that does not decompress, and one too large once it does.
    let spaces = [UInt8](repeating: 0x20, count: 1 << 20)
    let bombs = [
      ("gzip", try Gzip.compress(spaces, level: 9)), ("zstd", try Zstd.compress(spaces, level: 19)),
    ]
    for (encoding, bomb) in bombs {
      #expect(bomb.count <= 4096)
      for (body, expected) in [(garbage, 400), (bomb, 413)] {
        #expect(
          try status(
            RawHTTP.post(
              "/v1/logs", body: body,
              headers: [("Content-Type", "application/json"), ("Content-Encoding", encoding)])
          ).status == expected, "\(encoding)")
      }
    }
    // Still alive, and nothing was stored.
    let stats = try collector.stats()
    #expect(stats["batches"] as? Int == 0)
    // Every refusal is counted, those of the parsing stage (400, 414, 431, 501, 505) too.
    #expect(stats["rejectedRequests"] as? Int == 22, "\(stats)")
    let byStatus = try #require(stats["rejectedByStatus"] as? [String: Int], "\(stats)")
    #expect(
      byStatus == [
        "400": 12, "404": 1, "405": 1, "413": 3, "414": 1, "415": 1, "431": 1, "501": 1,
        "505": 1,
      ])
    #expect(collector.terminate() == 0)
  }

  @Test("beyond loopback a token is required; with a token, requests without it get 401")
  func token() throws {
    let directory = try CollectorProcess.scratchDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    // 192.0.2.1 is TEST-NET-1: the collector must refuse before it binds anything.
    let refused = try CollectorProcess(
      dataDirectory: directory, arguments: ["--host", "192.0.2.1"], waitForListening: false)
    #expect(refused.waitForExit() == 1)
    #expect(refused.standardError.contains("requires a bearer token"))

    let token = "tok-\(UUID().uuidString)"
    let collector = try CollectorProcess(
      dataDirectory: directory, environment: [CollectorOptions.tokenEnvironmentVariable: token])
    let body = Self.protobufPost(CollectorSamples.logs(0..<1), key: "t1")
    let without = try RawHTTP.exchange(port: collector.port, body)
    #expect(without.status == 401)
    #expect(without.header("WWW-Authenticate") == "Bearer")
    let wrong = RawHTTP.post(
      "/v1/logs", body: CollectorSamples.logs(0..<1).encoded(as: .protobuf),
      headers: [("Content-Type", "application/x-protobuf"), ("Authorization", "Bearer \(token)x")])
    #expect(try RawHTTP.exchange(port: collector.port, wrong).status == 401)
    #expect(
      try RawHTTP.exchange(port: collector.port, Array("GET /stats HTTP/1.1\r\n\r\n".utf8)).status
        == 401)
    let right = RawHTTP.post(
      "/v1/logs", body: CollectorSamples.logs(0..<1).encoded(as: .protobuf),
      headers: [("Content-Type", "application/x-protobuf"), ("Authorization", "Bearer \(token)")])
    #expect(try RawHTTP.exchange(port: collector.port, right).status == 200)
    #expect(collector.terminate() == 0)

    // The token given as --token instead: the same 401 without it, 200 with it.
    let flagged = try CollectorProcess(dataDirectory: directory, arguments: ["--token", token])
    #expect(try RawHTTP.exchange(port: flagged.port, body).status == 401)
    let keyed = RawHTTP.post(
      "/v1/logs", body: CollectorSamples.logs(1..<2).encoded(as: .protobuf),
      headers: [("Content-Type", "application/x-protobuf"), ("Authorization", "Bearer \(token)")])
    #expect(try RawHTTP.exchange(port: flagged.port, keyed).status == 200)
    #expect(flagged.terminate() == 0)
  }

  @Test("a slow client is answered 408 and dropped; an idle connection is closed")
  func slowClient() throws {
    let directory = try CollectorProcess.scratchDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let collector = try CollectorProcess(
      dataDirectory: directory, arguments: ["--read-timeout-ms", "400", "--idle-timeout-ms", "600"])
    // A head that never ends, sent a byte at a time.
    let slow = try RawHTTP.connect(port: collector.port)
    defer { close(slow) }
    let start = ContinuousClock.now
    var closedEarly = false
    for byte in Array("POST /v1/logs HTTP/1.1\r\nContent-Length: 10\r\n".utf8).prefix(12) {
      if !PosixSocket.send(slow, [byte]) {
        closedEarly = true
        break
      }
      usleep(50_000)
    }
    let (answer, closed) = RawHTTP.waitForClose(slow, timeout: .seconds(5))
    #expect(closed)
    #expect(!closedEarly || closed)
    #expect(String(decoding: answer, as: UTF8.self).hasPrefix("HTTP/1.1 408"))
    let elapsed = ContinuousClock.now - start
    #expect(elapsed < .seconds(3), "dropped after the read timeout, not much later")
    // A body that never comes.
    let stalled = try RawHTTP.connect(port: collector.port)
    defer { close(stalled) }
    PosixSocket.send(
      stalled,
      Array(
        "POST /v1/logs HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"
          .utf8))
    let stalledOutcome = RawHTTP.waitForClose(stalled, timeout: .seconds(5))
    #expect(stalledOutcome.closed)
    #expect(String(decoding: stalledOutcome.bytes, as: UTF8.self).hasPrefix("HTTP/1.1 408"))
    // An idle keep-alive connection is closed after the idle timeout, with no answer.
    let idle = try RawHTTP.connect(port: collector.port)
    defer { close(idle) }
    let idleOutcome = RawHTTP.waitForClose(idle, timeout: .seconds(5))
    #expect(idleOutcome.closed)
    #expect(idleOutcome.bytes.isEmpty)
    // A request refused at its head whose body then never comes: answered and counted once,
    // as refused (404), not also as too slow (408).
    let refused = try RawHTTP.connect(port: collector.port)
    defer { close(refused) }
    PosixSocket.send(
      refused,
      Array("POST /nowhere HTTP/1.1\r\nContent-Length: 100\r\n\r\n{".utf8))
    let refusedOutcome = RawHTTP.waitForClose(refused, timeout: .seconds(5))
    #expect(refusedOutcome.closed)
    let refusedText = String(decoding: refusedOutcome.bytes, as: UTF8.self)
    #expect(refusedText.hasPrefix("HTTP/1.1 404"), "\(refusedText)")
    #expect(!refusedText.contains("408"), "one answer: \(refusedText)")
    let stats = try collector.stats()
    #expect(stats["rejectedRequests"] as? Int == 3, "\(stats)")
    #expect(
      stats["rejectedByStatus"] as? [String: Int] == ["404": 1, "408": 2], "\(stats)")
    #expect(collector.terminate() == 0)
  }

  @Test("keep-alive, and the request limit per connection")
  func keepAlive() throws {
    let directory = try CollectorProcess.scratchDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let collector = try CollectorProcess(
      dataDirectory: directory, arguments: ["--max-requests-per-connection", "3"])
    let connection = try RawHTTP.connect(port: collector.port)
    defer { close(connection) }
    for index in 0..<3 {
      PosixSocket.send(connection, Self.protobufPost(CollectorSamples.logs(index..<(index + 1))))
      let response = try #require(RawHTTP.readResponse(connection))
      #expect(response.status == 200)
      #expect((response.header("Connection") == "close") == (index == 2))
    }
    #expect(RawHTTP.waitForClose(connection, timeout: .seconds(5)).closed)
    // HTTP/1.0 closes unless asked to keep alive; Connection: close is honoured.
    let old = try RawHTTP.connect(port: collector.port)
    defer { close(old) }
    PosixSocket.send(old, Array("GET /stats HTTP/1.0\r\n\r\n".utf8))
    #expect(RawHTTP.readResponse(old)?.status == 200)
    #expect(RawHTTP.waitForClose(old, timeout: .seconds(5)).closed)
    #expect(collector.terminate() == 0)
  }

  @Test("a key stored before a SIGKILL is still known after a restart: replayed, not stored again")
  func dedupeAcrossRestart() throws {
    let directory = try CollectorProcess.scratchDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let batch = Self.protobufPost(CollectorSamples.logs(0..<25), key: "batch-0001")
    var collector = try CollectorProcess(dataDirectory: directory)
    let first = try RawHTTP.exchange(port: collector.port, batch)
    #expect(first.status == 200)
    #expect(first.header("Idempotent-Replayed") == nil)
    collector.killHard()
    #expect(collector.process.terminationReason == .uncaughtSignal)

    collector = try CollectorProcess(dataDirectory: directory)
    let replay = try RawHTTP.exchange(port: collector.port, batch)
    #expect(replay.status == 200)
    #expect(replay.header("Idempotent-Replayed") == "true")
    #expect(replay.body == first.body)
    // The same key in JSON is the same request: replayed too.
    let json = RawHTTP.post(
      "/v1/logs", body: CollectorSamples.logs(0..<25).encoded(as: .json),
      headers: [("Content-Type", "application/json"), ("Idempotency-Key", "batch-0001")])
    let jsonReplay = try RawHTTP.exchange(port: collector.port, json)
    #expect(jsonReplay.status == 200)
    #expect(jsonReplay.header("Idempotent-Replayed") == "true")
    #expect(jsonReplay.body == Array("{}".utf8))
    // The same key with other records is a conflict.
    let other = Self.protobufPost(CollectorSamples.logs(100..<101), key: "batch-0001")
    #expect(try RawHTTP.exchange(port: collector.port, other).status == 422)
    var stats = try collector.stats()
    #expect(stats["batches"] as? Int == 1)
    #expect(stats["logRecords"] as? Int == 25)
    #expect(stats["duplicatesSuppressed"] as? Int == 2)
    #expect(stats["keyConflicts"] as? Int == 1)
    collector.killHard()

    // The duplicate and conflict counts survive a restart too.
    collector = try CollectorProcess(dataDirectory: directory)
    stats = try collector.stats()
    #expect(stats["duplicatesSuppressed"] as? Int == 2)
    #expect(stats["keyConflicts"] as? Int == 1)
    #expect(collector.terminate() == 0)
    let archive = try CollectorArchive.open(directory: directory)
    defer { try? archive.close() }
    let seqs = try archive.logRecords().compactMap { CollectorSamples.seq(of: $0.record) }
    #expect(seqs == Array(0..<25))
  }

  @Test("faults: the first N fail with Retry-After; a seeded rate repeats; a delay delays")
  func failures() throws {
    let directory = try CollectorProcess.scratchDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    var collector = try CollectorProcess(
      dataDirectory: directory,
      arguments: ["--fail-first", "2", "--fail-status", "503", "--retry-after", "1"])
    let batch = Self.protobufPost(CollectorSamples.logs(0..<3), key: "k")
    for _ in 0..<2 {
      let response = try RawHTTP.exchange(port: collector.port, batch)
      #expect(response.status == 503)
      #expect(response.header("Retry-After") == "1")
      #expect(try OTLP.Status(protobuf: response.body).message.contains("fault injection"))
    }
    #expect(try RawHTTP.exchange(port: collector.port, batch).status == 200)
    var stats = try collector.stats()
    #expect(stats["batches"] as? Int == 1)
    #expect(stats["faultsInjected"] as? Int == 2)
    #expect(collector.terminate() == 0)

    // The same seed gives the same sequence of failures, run after run.
    var sequences: [[Int]] = []
    for run in 0..<2 {
      let runDirectory = directory + "/rate-\(run)"
      collector = try CollectorProcess(
        dataDirectory: runDirectory,
        arguments: ["--failure-rate", "0.5", "--seed", "42", "--fail-status", "429"])
      let connection = try RawHTTP.connect(port: collector.port)
      defer { close(connection) }
      var statuses: [Int] = []
      for index in 0..<20 {
        PosixSocket.send(connection, Self.protobufPost(CollectorSamples.logs(index..<(index + 1))))
        statuses.append(RawHTTP.readResponse(connection)?.status ?? -1)
      }
      sequences.append(statuses)
      #expect(collector.terminate() == 0)
    }
    #expect(sequences[0] == sequences[1])
    #expect(sequences[0].contains(429) && sequences[0].contains(200))
    #expect(Set(sequences[0]) == [200, 429])

    collector = try CollectorProcess(
      dataDirectory: directory + "/delay", arguments: ["--delay-ms", "300"])
    let start = ContinuousClock.now
    #expect(try RawHTTP.exchange(port: collector.port, batch).status == 200)
    #expect(ContinuousClock.now - start >= .milliseconds(300))
    stats = try collector.stats()
    #expect(stats["batches"] as? Int == 1)
    #expect(collector.terminate() == 0)
  }

  @Test("faults: a dropped request stores nothing; a dropped response has stored the batch")
  func drops() throws {
    let directory = try CollectorProcess.scratchDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let collector = try CollectorProcess(
      dataDirectory: directory,
      arguments: ["--drop-first-requests", "1", "--drop-first-responses", "1"])
    let batch = Self.protobufPost(CollectorSamples.logs(0..<4), key: "drop-me")
    // 1st: dropped mid-request, nothing stored.
    var connection = try RawHTTP.connect(port: collector.port)
    PosixSocket.send(connection, batch)
    var outcome = RawHTTP.waitForClose(connection, timeout: .seconds(5))
    close(connection)
    #expect(outcome.closed && outcome.bytes.isEmpty)
    #expect(try collector.stats()["batches"] as? Int == 0)
    // 2nd: stored, then dropped mid-response: part of a response, never a whole one.
    connection = try RawHTTP.connect(port: collector.port)
    PosixSocket.send(connection, batch)
    outcome = RawHTTP.waitForClose(connection, timeout: .seconds(5))
    close(connection)
    #expect(outcome.closed)
    #expect(!outcome.bytes.isEmpty && RawHTTP.parse(outcome.bytes) == nil)
    #expect(try collector.stats()["batches"] as? Int == 1)
    // 3rd: the sender never heard, so it resends under the same key: replayed.
    let replay = try RawHTTP.exchange(port: collector.port, batch)
    #expect(replay.status == 200)
    #expect(replay.header("Idempotent-Replayed") == "true")
    let stats = try collector.stats()
    #expect(stats["batches"] as? Int == 1)
    #expect(stats["logRecords"] as? Int == 4)
    #expect(stats["duplicatesSuppressed"] as? Int == 1)
    #expect(stats["faultsInjected"] as? Int == 2)
    #expect(collector.terminate() == 0)
  }

  @Test("bad command lines exit 64 with usage; --help exits 0")
  func commandLine() throws {
    for arguments in [["--bogus"], ["--port", "99999"], ["--failure-rate", "2"], ["--port"]] {
      let process = try CollectorProcess(
        dataDirectory: "/nonexistent", arguments: arguments, waitForListening: false)
      #expect(process.waitForExit() == 64)
      #expect(process.standardError.contains("stoic-collector: "))
    }
    let help = try CollectorProcess(
      dataDirectory: "", arguments: ["--help"], waitForListening: false)
    #expect(help.waitForExit() == 0)
  }
}
