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
    }
  }
}
