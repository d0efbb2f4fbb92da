// Builds a separate package that depends on Stoic with the traits: only in a build with them
// (CI's trait step), where the vendored upstream packages are at hand.
#if SwiftLog && SwiftMetrics && ServiceLifecycle && Tracing
  import Foundation
  import Stoic
  import StoicCollector
  import StoicForwarding
  import StoicTelemetry
  import Testing

  #if canImport(Glibc)
    import Glibc
  #elseif canImport(Darwin)
    import Darwin
  #endif

  /// A user's service (``ConsumerSources/service``, a package of its own depending on Stoic by
  /// path) forwarding to the example collector: SIGKILLed at random moments, restarted on the
  /// same directory each time, then sent SIGTERM. Every record whose log call returned arrives
  /// exactly once, and the counter's value at the collector is the one the spool holds. Every
  /// span whose end returned arrives exactly once, ended by the app; every span started and
  /// not ended arrives once, those a kill cut short marked unfinished, each child under its
  /// unit; every record carries its child span's ids.
  ///
  /// `STOIC_CONSUMER_KILLS` sets the number of kills (20 by default).
  @Suite("A consumer package: SIGKILLed, restarted, sent SIGTERM", .serialized)
  struct StoicConsumerKillTests {
    typealias Support = StoicTestSupport

    /// The kills, from `STOIC_CONSUMER_KILLS` (20 by default).
    static var kills: Int {
      ProcessInfo.processInfo.environment["STOIC_CONSUMER_KILLS"].flatMap { Int($0) } ?? 20
    }

    /// One run of the consumer: its process and the files its stdout and stderr go to.
    struct Run {
      let process: Process
      let output: String
      let errorOutput: String

      /// Starts generation `generation` on `spool`, forwarding to `endpoint`, with
      /// `environment` added to the process's.
      static func start(
        _ executable: String, spool: String, endpoint: String, generation: Int,
        in directory: String,
        environment: [String: String] = [:]
      ) throws -> Run {
        let output = directory + "/run-\(generation).out"
        let errorOutput = directory + "/run-\(generation).err"
        _ = FileManager.default.createFile(atPath: output, contents: nil)
        _ = FileManager.default.createFile(atPath: errorOutput, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = [spool, endpoint, "\(generation)"]
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errorOutput))
        try process.run()
        return Run(process: process, output: output, errorOutput: errorOutput)
      }

      /// What it printed so far.
      var text: String {
        String(decoding: FileManager.default.contents(atPath: output) ?? Data(), as: UTF8.self)
      }

      /// What it wrote on standard error so far.
      var errors: String {
        String(
          decoding: FileManager.default.contents(atPath: errorOutput) ?? Data(), as: UTF8.self)
      }

      /// The `seq` of every `logged` line it completed (the log call had returned).
      var acknowledged: [String] { lines("logged") }

      /// The `seq` of every line `WORD seq` it completed.
      func lines(_ word: String) -> [String] {
        let prefix = word + " "
        return text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
          .compactMap { line in
            line.hasPrefix(prefix) ? String(line.dropFirst(prefix.count)) : nil
          }
      }

      /// The spans whose start returned (`unit SEQ`, `child SEQ`) and those whose end did.
      var spans: (started: [String], ended: [String]) {
        (
          lines("started").map { "unit " + $0 } + lines("child-started").map { "child " + $0 },
          lines("ended").map { "unit " + $0 } + lines("child-ended").map { "child " + $0 }
        )
      }

      /// Waits (without blocking a thread) until it has ended, or `limit` passed.
      func waitForExit(limit: Duration) async throws -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now + limit
        while process.isRunning, clock.now < deadline {
          try await Task.sleep(for: .milliseconds(5))
        }
        return !process.isRunning
      }
    }

    /// The `seq` of every record of the consumer's service the collector holds.
    static func delivered(_ collector: Collector) throws -> [String] {
      try collector.archive.logRecords().compactMap { received -> String? in
        guard case .string("consumer.work") = received.record.attribute("log.label"),
          case .string(let seq) = received.record.attribute("seq")
        else { return nil }
        return seq
      }
    }

    /// The `seq` of every record of the consumer's service still in the spool.
    static func spooled(_ spool: TelemetrySpool) throws -> [String] {
      try spool.logs.entries().compactMap(\.record).filter { $0.label == "consumer.work" }
        .compactMap {
          guard case .string(let seq) = $0.metadata["seq"] else { return nil }
          return seq
        }
    }

    /// The spans at the collector against what the runs acknowledged: each arrived once; each
    /// whose end returned ended by the app; the unfinished only among those started and not
    /// acknowledged ended, and at most two a kill (a unit and its child whose end returned
    /// before their line) ended by the app without the line; each child under its unit, in
    /// its trace; each record with its child's ids.
    static func checkSpans(_ collector: Collector, started: [String], ended: [String]) throws {
      var arrived: [String: OTLP.Span] = [:]
      var twice: [String] = []
      for received in try collector.archive.spans() {
        let name = received.span.name
        guard name.hasPrefix("unit ") || name.hasPrefix("child ") else { continue }
        if arrived.updateValue(received.span, forKey: name) != nil { twice.append(name) }
      }
      #expect(twice.isEmpty, "\(twice.count) spans arrived twice: \(twice.prefix(5))")
      let missing = Set(started).subtracting(arrived.keys)
      #expect(missing.isEmpty, "\(missing.count) started spans never arrived: \(missing.prefix(5))")
      func isUnfinished(_ span: OTLP.Span) -> Bool {
        span.attribute(SpanEnd.unfinishedAttribute) == .bool(true)
      }
      let unfinished = Set(arrived.filter { isUnfinished($0.value) }.keys)
      let endedSet = Set(ended)
      #expect(unfinished.isDisjoint(with: endedSet), "a span whose end returned came unfinished")
      let cutShort = Set(started).subtracting(endedSet)
      let endedUnseen = cutShort.subtracting(unfinished)
      #expect(
        endedUnseen.count <= 2 * Self.kills,
        "\(endedUnseen.count) spans without their end line ended by the app")
      #expect(!unfinished.isEmpty, "no kill cut a span short (each unit waits inside its child)")
      for span in arrived.values where isUnfinished(span) {
        #expect(span.status?.code == 2, "\(span.name) unfinished without status error")
      }
      var children = 0
      for (name, child) in arrived where name.hasPrefix("child ") {
        let seq = name.dropFirst("child ".count)
        guard let unit = arrived["unit " + seq] else {
          Issue.record("\(name) arrived without its unit")
          continue
        }
        #expect(child.parentSpanId == unit.spanId && child.traceId == unit.traceId, "\(name)")
        #expect(unit.parentSpanId.allSatisfy { $0 == 0 }, "unit \(seq) has a parent")
        children += 1
      }
      var correlated = 0
      for received in try collector.archive.logRecords() {
        guard case .string("consumer.work") = received.record.attribute("log.label"),
          case .string(let seq) = received.record.attribute("seq"),
          let child = arrived["child " + seq]
        else { continue }
        #expect(received.record.traceId == child.traceId, "record \(seq)'s trace id")
        #expect(received.record.spanId == child.spanId, "record \(seq)'s span id")
        correlated += 1
      }
      #expect(correlated > 0)
      print(
        "consumer spans: \(arrived.count) arrived (\(children) children), "
          + "\(started.count) starts and \(ended.count) ends returned, \(unfinished.count) "
          + "unfinished, \(endedUnseen.count) ended without their line, \(correlated) records "
          + "correlated")
    }

    @Test("SIGKILLed at random moments, then SIGTERM: every returned record once, the count exact")
    func killsThenSigterm() async throws {
      let (package, build) = try await ConsumerPackage.withTraits.value
      try #require(build.status == 0, "the consumer did not build:\n\(build.output)")
      let executable = package.executable("consumer")

      try await Support.withCollector("consumer") { directory, collector in
        let spool = directory + "/spool"
        var acknowledged: [String] = []
        var spansStarted: [String] = []
        var spansEnded: [String] = []
        var generation = 0
        // The kills: each run lives a random time (some die while bootstrapping, some while
        // the forwarder sends), then is SIGKILLed; the next starts on the same directory.
        for _ in 0..<Self.kills {
          let run = try Run.start(
            executable, spool: spool, endpoint: collector.baseURL, generation: generation,
            in: directory)
          defer { if run.process.isRunning { kill(run.process.processIdentifier, SIGKILL) } }
          try await Task.sleep(for: .milliseconds(Int.random(in: 100...1500)))
          try #require(run.process.isRunning, "run \(generation) ended early: \(run.text)")
          kill(run.process.processIdentifier, SIGKILL)
          try #require(try await run.waitForExit(limit: .seconds(10)))
          acknowledged += run.acknowledged
          spansStarted += run.spans.started
          spansEnded += run.spans.ended
          generation += 1
        }

        // The last run: SIGTERM once it has logged a few hundred records.
        let last = try Run.start(
          executable, spool: spool, endpoint: collector.baseURL, generation: generation,
          in: directory)
        defer { if last.process.isRunning { kill(last.process.processIdentifier, SIGKILL) } }
        let clock = ContinuousClock()
        let ready = clock.now + .seconds(60)
        while last.process.isRunning, clock.now < ready, last.acknowledged.count < 300 {
          try await Task.sleep(for: .milliseconds(10))
        }
        try #require(last.process.isRunning, "the last run ended early: \(last.text)")
        kill(last.process.processIdentifier, SIGTERM)
        let signalled = clock.now
        // The consumer's shutdown timeout is 5 s; the slack is the outbox's and the spool's
        // close on two busy cores.
        try #require(try await last.waitForExit(limit: .seconds(30)), "no exit after SIGTERM")
        let took = clock.now - signalled
        #expect(took < .seconds(15), "exited \(took) after SIGTERM")
        #expect(last.process.terminationReason == .exit && last.process.terminationStatus == 0)
        #expect(last.text.contains("shutdown delivered="), "\(last.text.suffix(300))")
        let lastAcknowledged = last.acknowledged
        acknowledged += lastAcknowledged
        spansStarted += last.spans.started
        spansEnded += last.spans.ended

        // After the SIGTERM, before any other run: each record of the last run whose log call
        // returned is at the collector or durable in the spool.
        let deliveredAtSigterm = Set(try Self.delivered(collector))
        let reopened = try TelemetrySpool.open(at: spool)
        let spooledAtSigterm = Set(try Self.spooled(reopened))
        try reopened.close()
        let lostAtSigterm = Set(lastAcknowledged).subtracting(deliveredAtSigterm)
          .subtracting(spooledAtSigterm)
        #expect(lostAtSigterm.isEmpty, "\(lostAtSigterm.count) records logged before SIGTERM lost")

        // A final drain (what `stoic drain` or the next start does) forwards what is left.
        let drain = try await Stoic.bootstrap(directory: spool, environment: [:]) {
          $0.exporter = OTLPExporterConfiguration(endpoint: collector.baseURL)
          $0.bootstrapsLogging = false
          $0.bootstrapsMetrics = false
          $0.bootstrapsTracing = false
          $0.startsForwarding = false
        }
        let report = await drain.shutdown(timeout: .seconds(60))
        #expect(report.errors.isEmpty)
        // What is left may only be the spool's own events raised after the last batch formed.
        #expect(try Support.onlySpoolEventsLeft(inSpool: spool))

        let delivered = try Self.delivered(collector)
        var arrivals: [String: Int] = [:]
        for seq in delivered { arrivals[seq, default: 0] += 1 }
        let doubled = arrivals.filter { $0.value > 1 }
        #expect(doubled.isEmpty, "\(doubled.count) records arrived more than once")
        let missing = Set(acknowledged).subtracting(arrivals.keys)
        #expect(missing.isEmpty, "\(missing.count) returned records never arrived")
        #expect(Set(acknowledged).count == acknowledged.count)

        try Self.checkSpans(collector, started: spansStarted, ended: spansEnded)

        // The counter: an increment follows each record's log call and precedes its line, so
        // it lies between the lines printed and the records logged, a SIGKILL taking at most
        // one increment in flight; the collector holds the spool's own (live) value.
        let final = try TelemetrySpool.open(at: spool)
        let value = final.metrics.counter(label: "consumer.records").value
        try final.close()
        let counted = try Support.counterValue(collector, name: "consumer.records")
        #expect(counted == value, "the collector holds \(counted ?? -1), the spool \(value)")
        #expect(value >= Int64(acknowledged.count))
        #expect(value <= Int64(arrivals.count))
        #expect(Int64(arrivals.count) - value <= Int64(Self.kills))
        print(
          "consumer: \(Self.kills) kills, \(acknowledged.count) records returned, "
            + "\(arrivals.count) arrived, counter \(value), SIGTERM exit in \(took), "
            + "at SIGTERM \(deliveredAtSigterm.count) delivered and \(spooledAtSigterm.count) "
            + "spooled, \(report.finalDrain.logRecordsDelivered) by the final drain; "
            + "build \(build.seconds) s")
      }
    }
  }
#endif
