import Foundation
import StoicStore
import StoicTesting
import Testing

@testable import StoicTelemetry

/// A real process logs through `LogSpool` (the `stoic-telemetry-child` executable) and is killed
/// with SIGKILL at random moments, from before it opened the spool to deep into its logging:
/// after each kill, every record whose call had returned is there, intact, in order, once.
///
/// `STOIC_TELEMETRY_KILLS` sets the number of kills (50 by default); `STOIC_CRASH_SEED` the
/// seed of the moments.
@Suite("LogSpool survives SIGKILL of a real logging process")
struct LogSpoolProcessKillTests {
  /// The child executable next to the test bundle in the build directory.
  static var child: URL {
    let testBinary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    var directory = testBinary.deletingLastPathComponent()
    let name = "stoic-telemetry-child"
    while !FileManager.default.fileExists(atPath: directory.appendingPathComponent(name).path),
      directory.path != "/"
    {
      directory = directory.deletingLastPathComponent()
    }
    return directory.appendingPathComponent(name)
  }

  /// A running child: the process and the file its acknowledgements go to.
  struct Child {
    let process: Process
    let acknowledgements: String

    /// Starts run `run` of the child on the spool at `root`, with `environment` added to this
    /// process's.
    init(root: String, run: Int, scratch: String, environment: [String: String] = [:]) throws {
      acknowledgements = "\(scratch)/acks-\(run)"
      _ = FileManager.default.createFile(atPath: acknowledgements, contents: nil)
      process = Process()
      process.executableURL = LogSpoolProcessKillTests.child
      process.arguments = [root, String(run)]
      if !environment.isEmpty {
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
      }
      process.standardOutput = try Foundation.FileHandle(
        forWritingTo: URL(fileURLWithPath: acknowledgements))
      process.standardError = Foundation.FileHandle.nullDevice
      try process.run()
    }

    /// The indices acknowledged so far (complete lines only).
    var acknowledged: [Int] {
      let text = (try? String(contentsOfFile: acknowledgements, encoding: .utf8)) ?? ""
      return text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().compactMap {
        Int($0)
      }
    }

    /// Kills it with SIGKILL and waits for it.
    func kill() {
      Foundation.kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
    }
  }

  @Test(
    "SIGKILL at random moments: every record whose call returned is there, intact, in order, once")
  func killedLogger() throws {
    let kills = EnvironmentValue.integer("STOIC_TELEMETRY_KILLS") ?? 50
    var random = SplitMix64(seed: CrashBudget.fromEnvironment().seed)
    try ScratchDirectory.with { scratch in
      let root = scratch + "/spool"
      var lastSequence: UInt64 = 0
      var acknowledgedTotal = 0
      var killedWhileLogging = 0
      for run in 0..<kills {
        let child = try Child(root: root, run: run, scratch: scratch)
        if run == 0 {
          try Self.checkLockedByChild(child, root: root)
        } else if random.next() % 4 == 0 {
          // Anywhere from at once (before the child opened the spool) to 30 ms in.
          usleep(UInt32(random.next() % 30_000))
        } else {
          // While it logs: up to 30 ms after its first record.
          Self.waitForFirstRecord(child)
          usleep(UInt32(random.next() % 30_000))
        }
        let wasRunning = child.process.isRunning
        child.kill()
        #expect(
          wasRunning, "run \(run): the child stopped by itself (\(child.process.terminationStatus))"
        )
        #expect(child.process.terminationReason == .uncaughtSignal)
        let acknowledged = child.acknowledged
        #expect(acknowledged == Array(0..<acknowledged.count))
        if !acknowledged.isEmpty { killedWhileLogging += 1 }
        acknowledgedTotal += acknowledged.count
        lastSequence = try Self.check(
          root: root, run: run, after: lastSequence, acknowledged: acknowledged.count)
      }
      #expect(killedWhileLogging >= kills / 2, "most kills should land while the child logs")
      print(
        "log spool kill test: \(kills) kills, \(killedWhileLogging) while logging, "
          + "\(acknowledgedTotal) acknowledged records, all found")
    }
  }

  /// Waits (up to 10 s) until the child acknowledged a record.
  static func waitForFirstRecord(_ child: Child) {
    var waited = 0
    while child.acknowledged.isEmpty, child.process.isRunning, waited < 10_000 {
      usleep(1000)
      waited += 1
    }
  }

  /// Waits until the child logs, then checks that this process cannot open the spool it holds
  /// and is told the child's process id.
  static func checkLockedByChild(_ child: Child, root: String) throws {
    waitForFirstRecord(child)
    let error = #expect(throws: StoreError.self) { try TelemetrySpool.open(at: root) }
    #expect(error?.code == .locked)
    #expect(
      error?.message.contains("process \(child.process.processIdentifier)") == true,
      "\(String(describing: error))")
  }

  /// Reopens the spool after run `run` was killed: the run's records follow `after`, numbered
  /// 0, 1, 2… with no gap or duplicate, intact, at least `acknowledged` of them. Returns the
  /// spool's last sequence.
  static func check(root: String, run: Int, after: UInt64, acknowledged: Int) throws -> UInt64 {
    let spool = try SpoolTestSupport.reopen(at: root)
    defer { try? spool.close() }
    var next = 0
    var unreadable = 0
    try spool.logs.forEachRecord(from: after + 1) { entry in
      guard let record = entry.record else {
        unreadable += 1
        return
      }
      guard record.label == "child" else { return }
      let expected = LogRecord(
        sequence: record.sequence, timeNanoseconds: record.timeNanoseconds,
        level: next % 16 == 15 ? .error : .info, label: "child",
        message: "run \(run) record \(next)",
        metadata: [
          "run": .stringConvertible(String(run)), "index": .stringConvertible(String(next)),
          "context": .dictionary(["even": .string(String(next % 2 == 0))]),
        ],
        source: record.source, file: record.file, function: record.function, line: record.line)
      if record != expected {
        Issue.record("run \(run): record \(next) is \(record)")
      }
      next += 1
    }
    #expect(unreadable == 0)
    #expect(next >= acknowledged, "run \(run): \(acknowledged) acknowledged, \(next) found")
    #expect(spool.dropCounts.total == 0, "run \(run): \(spool.dropCounts)")
    return spool.logs.lastSequence
  }
}
