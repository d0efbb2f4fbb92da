import Foundation
import StoicPowerCut
import Testing

/// The workloads and their checks, without root: each runs in a real process on a plain
/// directory and is killed with SIGKILL (a crash of the process keeps everything its calls
/// handed to the kernel, so every claim must hold, even the controls'), and a claim beyond
/// what was written must be caught.
@Suite("Power-cut workloads and their checks")
struct PowerCutWorkloadTests {
  @Test(
    "SIGKILL: every claim holds, and a claim beyond what was written is a violation",
    arguments: PowerCutWorkloads.all.map(\.name))
  func killedWorkloadKeepsItsClaims(workload name: String) async throws {
    let workload = try #require(PowerCutWorkloads.named(name))
    try await PowerCutSupport.withScratchDirectory { scratch in
      let directory = scratch + "/store"
      let acks = scratch + "/acks"
      try await PowerCutSupport.onOwnThread {
        let process = try PowerCutWorkloadProcess(
          executable: PowerCutSupport.executable, workload: name, directory: directory,
          acknowledgements: acks, seed: 3, logPath: scratch + "/log")
        defer { process.killAndReap() }
        var waited = 0
        while PowerCutAcknowledgements(path: acks).count < 3 && waited < 30_000 {
          #expect(process.isRunning, "the workload stopped: \(process.ending)")
          guard process.isRunning else { return }
          usleep(1000)
          waited += 1
        }
        usleep(150_000)
      }
      try FileManager.default.copyItem(atPath: directory, toPath: scratch + "/copy")
      let claims = PowerCutAcknowledgements(path: acks)
      #expect(claims.count >= 3)

      let verdict = await workload.verify(directory: directory, acknowledgements: claims)
      #expect(verdict.violations.isEmpty, "\(verdict.text)")
      #expect(!verdict.facts.isEmpty)

      // Claims no store could satisfy, one of each kind: each workload's check finds one.
      let beyond: [PowerCutClaim] = [
        .durableThrough(1 << 40), .enqueued("k999999999"), .generation(1 << 40),
        .metricsRound(1 << 30),
      ]
      let tampered = PowerCutAcknowledgements(
        text: (claims.claims + beyond).map { $0.line + "\n" }.joined())
      let caught = await workload.verify(directory: scratch + "/copy", acknowledgements: tampered)
      #expect(!caught.violations.isEmpty, "\(caught.text)")
    }
  }

  @Test("claims round-trip through their lines; a line cut short is ignored")
  func claimLines() {
    let claims: [PowerCutClaim] = [
      .record(sequence: 7, appender: 2, counter: 3), .durableThrough(9), .snapshot(4),
      .dropped(3), .enqueued("k12"), .retired("k11"), .generation(5),
      .written(sequence: 10, appender: 1, counter: 4), .metricsRound(6),
      .delivered(key: "ab-l-1-8", counters: [1, 2, 3]), .delivered(key: "ab-m-1-1", counters: []),
    ]
    let text = claims.map { $0.line + "\n" }.joined()
    #expect(PowerCutAcknowledgements(text: text).claims == claims)
    let cut = PowerCutAcknowledgements(text: text + "a 8 2")
    #expect(cut.claims == claims, "the last line, without its newline, is still being written")
    #expect(PowerCutAcknowledgements(text: "a 1 2\nq 3\ng x\n").claims.isEmpty)
    let parsed = PowerCutAcknowledgements(text: text)
    #expect(parsed.durableThrough == 9)
    #expect(parsed.droppedThrough == 4)
    #expect(parsed.snapshotThrough == 4)
    #expect(parsed.enqueued == ["k12"])
    #expect(parsed.retired == ["k11"])
    #expect(parsed.generation == 5)
    #expect(parsed.flushedThrough == 9)
    #expect(parsed.metricsRound == 6)
    #expect(parsed.deliveries == ["ab-l-1-8": [1, 2, 3], "ab-m-1-1": []])
    #expect(parsed.logRecords[10].map { [$0.appender, $0.counter] } == [1, 4])
    #expect(parsed.logRecords[10]?.durable == false)
    #expect(parsed.logRecords[7]?.durable == true)
  }

  @Test("a payload proves itself: torn, flipped, mixed or of another kind, it does not decode")
  func payloads() {
    let record = PowerCutPayload.record(appender: 3, counter: 41)
    #expect(PowerCutPayload.decode(record, as: .record).map { [$0.first, $0.second] } == [3, 41])
    #expect(PowerCutPayload.decode(record, as: .generation) == nil)
    #expect(PowerCutPayload.decode(Array(record.dropLast()), as: .record) == nil)
    var flipped = record
    flipped[flipped.count / 2 + 7] ^= 0x20
    #expect(PowerCutPayload.decode(flipped, as: .record) == nil)
    let other = PowerCutPayload.record(appender: 3, counter: 42)
    let mixed = Array(record.prefix(20)) + Array(other.dropFirst(20))
    #expect(PowerCutPayload.decode(mixed, as: .record) == nil)
    let generation = PowerCutPayload.generation(12)
    #expect(PowerCutPayload.decode(generation, as: .generation)?.first == 12)
  }

  @Test("the metrics workload's values after a round are those its rounds add up to")
  func metricsValues() {
    var counter: Int64 = 0
    var sum = 0.0
    for round in 0...200 {
      if round > 0 {
        counter += TelemetryMetricsWorkload.increment(round)
        sum += TelemetryMetricsWorkload.observation(round)
      }
      let values = TelemetryMetricsWorkload.values(after: round)
      #expect(values.counter == counter && values.sum == sum && values.count == UInt64(round))
    }
  }

  @Test("a log record proves itself; one that is not the record its metadata names is a mix")
  func logRecords() {
    let message = PowerCutLogRecord.message(appender: 1, counter: 6)
    #expect(
      PowerCutLogRecord.numbers(inMessage: message).map { [$0.appender, $0.counter] } == [1, 6])
    #expect(PowerCutLogRecord.numbers(inMessage: message + "0") == nil)
  }

  @Test("a verdict round-trips through its lines and keeps at most 20 violations")
  func verdictLines() {
    var verdict = PowerCutVerdict()
    for index in 0..<30 { verdict.add("missing \(index)") }
    verdict.facts.append("3 records")
    #expect(verdict.violations.count == 21)
    #expect(verdict.violations.last == "and more")
    #expect(PowerCutVerdict(text: verdict.text) == verdict)
    #expect(PowerCutVerdict(text: "fact: 3 records\n").violations.isEmpty)
  }
}
