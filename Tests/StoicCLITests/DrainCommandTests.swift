import Foundation
import StoicCollector
import StoicForwarding
import StoicTelemetry
import Testing

/// `stoic drain DIR --to URL`, run as a real process against the example collector in this
/// process.
@Suite("stoic drain")
struct DrainCommandTests {
  /// A spool in `directory` with `count` records labelled `drain-test`, closed.
  static func writeSpool(_ directory: String, count: Int) throws {
    let spool = try TelemetrySpool.open(at: directory)
    for seq in 0..<count {
      spool.logs.log(
        level: .info, label: "drain-test", message: "record \(seq)",
        metadata: ["seq": .stringConvertible(String(seq))])
    }
    spool.metrics.counter(label: "drain.test").increment(by: 3)
    try spool.close()
  }

  @Test(
    "drains a spool into a collector: every record once, headers from the environment, spool emptied"
  )
  func drains() async throws {
    try await StoicProcess.withAsyncScratch { directory in
      let spoolDirectory = directory + "/spool"
      try Self.writeSpool(spoolDirectory, count: 120)
      let collector = try await Collector.start(
        CollectorOptions(dataDirectory: directory + "/collector", token: "t0k3n"))
      let outcome = try StoicProcess.run(
        ["drain", spoolDirectory, "--to", collector.baseURL, "--encoding", "json"],
        environment: ["STOIC_OTLP_HEADERS": "Authorization=Bearer%20t0k3n"])
      #expect(outcome.status == 0, "\(outcome)")
      #expect(!outcome.output.contains("t0k3n") && !outcome.error.contains("t0k3n"))
      let seqs = try collector.archive.logRecords().compactMap { received -> Int? in
        guard case .string("drain-test")? = received.record.attribute("log.label"),
          case .string(let text)? = received.record.attribute("seq")
        else { return nil }
        return Int(text)
      }
      #expect(seqs.sorted() == Array(0..<120))
      #expect(collector.stats.dataPoints > 0)
      try await collector.stop()
      // Every record the app wrote has left the spool (what remains, if anything, is the
      // spool's own events written after the drain, at close).
      let spool = try TelemetrySpool.open(at: spoolDirectory)
      let left = try spool.logs.entries(from: spool.logs.lowWaterMark + 1)
      #expect(left.allSatisfy { $0.record?.label == LogSpool.eventLabel }, "\(left)")
      #expect(spool.logs.lowWaterMark >= 120)
      try spool.close()
    }
  }

  @Test("an unreachable endpoint stops the drain with exit 75; nothing is lost")
  func unreachable() throws {
    try StoicProcess.withScratch { directory in
      try Self.writeSpool(directory, count: 3)
      // Port 9 (discard) on loopback: nothing listens there in the test environment.
      let outcome = try StoicProcess.run(["drain", directory, "--to", "http://127.0.0.1:9"])
      #expect(outcome.status == 75, "\(outcome)")
      #expect(outcome.error.contains("run it again later"))
      let spool = try TelemetrySpool.open(at: directory)
      #expect(try spool.logs.entries().filter { $0.record?.label == "drain-test" }.count == 3)
      try spool.close()
    }
  }

  @Test("not a spool: 66; no --to: 64; a bad encoding: 64")
  func badInput() throws {
    try StoicProcess.withScratch { directory in
      let notSpool = try StoicProcess.run(["drain", directory, "--to", "http://127.0.0.1:9"])
      let noURL = try StoicProcess.run(["drain", directory])
      let badEncoding = try StoicProcess.run(
        ["drain", directory, "--to", "http://x:1", "--encoding", "xml"])
      let badScheme = try StoicProcess.run(["drain", directory, "--to", "ftp://x"])
      #expect(notSpool.status == 66, "\(notSpool)")
      #expect(noURL.status == 64, "\(noURL)")
      #expect(badEncoding.status == 64, "\(badEncoding)")
      #expect(badScheme.status == 64, "\(badScheme)")
      // Endpoints that can never work are refused at once, never retried as unreachable (75).
      for url in ["http://user:s3cret@127.0.0.1:9", "http://127.0.0.1:0", "http://127.0.0.1:9#x"] {
        let never = try StoicProcess.run(["drain", directory, "--to", url])
        #expect(never.status == 64, "\(never)")
        #expect(!never.error.contains("s3cret"))
      }
    }
  }

  @Test("without --to: the endpoint and headers come from OTEL_EXPORTER_OTLP_* variables")
  func drainsFromEnvironment() async throws {
    try await StoicProcess.withAsyncScratch { directory in
      let spoolDirectory = directory + "/spool"
      try Self.writeSpool(spoolDirectory, count: 20)
      let collector = try await Collector.start(
        CollectorOptions(dataDirectory: directory + "/collector", token: "t0k3n"))
      let outcome = try StoicProcess.run(
        ["drain", spoolDirectory],
        environment: [
          "OTEL_EXPORTER_OTLP_ENDPOINT": collector.baseURL,
          "OTEL_EXPORTER_OTLP_HEADERS": "Authorization=Bearer%20t0k3n",
          "OTEL_EXPORTER_OTLP_PROTOCOL": "http/json",
          "OTEL_SERVICE_NAME": "drain-env-test",
        ])
      #expect(outcome.status == 0, "\(outcome)")
      let received = try collector.archive.logRecords().filter {
        if case .string("drain-test")? = $0.record.attribute("log.label") { return true }
        return false
      }
      #expect(received.count == 20)
      try await collector.stop()
    }
  }

  @Test(
    "a wrong token: exit 77, the batch kept, HTTP 401 in inspect's LAST ERROR, no secret shown"
  )
  func unauthorizedShowsLastError() async throws {
    try await StoicProcess.withAsyncScratch { directory in
      let spoolDirectory = directory + "/spool"
      try Self.writeSpool(spoolDirectory, count: 5)
      let collector = try await Collector.start(
        CollectorOptions(dataDirectory: directory + "/collector", token: "right-token"))
      let drain = try StoicProcess.run(
        ["drain", spoolDirectory],
        environment: [
          "OTEL_EXPORTER_OTLP_ENDPOINT": collector.baseURL,
          "OTEL_EXPORTER_OTLP_HEADERS": "Authorization=Bearer%20wr0ng-s3cret",
        ])
      try await collector.stop()
      #expect(drain.status == 77, "\(drain)")
      #expect(drain.error.contains("401"))
      #expect(drain.error.contains("refused the credentials"), "\(drain)")
      #expect(drain.error.contains("OTEL_EXPORTER_OTLP_HEADERS"), "\(drain)")
      #expect(!drain.error.contains("run it again later"), "\(drain)")
      let inspect = try StoicProcess.run(["inspect", spoolDirectory + "/forwarding"])
      #expect(inspect.status == 0, "\(inspect)")
      #expect(inspect.output.contains("LAST ERROR"))
      #expect(inspect.output.contains("HTTP 401: the receiver refused the credentials"))
      for text in [drain.output, drain.error, inspect.output, inspect.error] {
        #expect(!text.contains("wr0ng-s3cret"))
      }
      let spool = try TelemetrySpool.open(at: spoolDirectory)
      #expect(try spool.logs.entries().filter { $0.record?.label == "drain-test" }.count == 5)
      try spool.close()
    }
  }

  @Test("a bad OTEL_* value: exit 64 naming the variable, never its value")
  func badEnvironment() throws {
    try StoicProcess.withScratch { directory in
      try Self.writeSpool(directory, count: 1)
      for (variable, value) in [
        ("OTEL_EXPORTER_OTLP_HEADERS", "s3cret-no-equals"),
        ("OTEL_EXPORTER_OTLP_PROTOCOL", "grpc"),
        ("OTEL_EXPORTER_OTLP_CERTIFICATE", "/etc/s3cret.pem"),
      ] {
        let outcome = try StoicProcess.run(
          ["drain", directory],
          environment: ["OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:9", variable: value])
        #expect(outcome.status == 64, "\(outcome)")
        #expect(outcome.error.contains(variable))
        #expect(!outcome.error.contains("s3cret") && !outcome.output.contains("s3cret"))
      }
    }
  }

  @Test("the telemetry.sdk.version the forwarder sends is the version stoic prints")
  func sdkVersionMatches() throws {
    let outcome = try StoicProcess.run(["version"])
    #expect(outcome.status == 0)
    #expect(outcome.output.contains(TelemetrySDK.version), "\(outcome)")
  }
}
