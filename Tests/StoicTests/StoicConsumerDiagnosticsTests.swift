// Builds a separate package that depends on Stoic with the traits: only in a build with them
// (CI's trait step), where the vendored upstream packages are at hand.
#if SwiftLog && SwiftMetrics && ServiceLifecycle
  import Foundation
  import Stoic
  import StoicCollector
  import StoicTelemetry
  import Testing

  #if canImport(Glibc)
    import Glibc
  #elseif canImport(Darwin)
    import Darwin
  #endif

  /// The user's service (``ConsumerSources/service``) as a user sees it go wrong: a bad
  /// `OTEL_*` value, a receiver that refuses the credentials, Stoic's service listed after the
  /// app's. The service never stops for telemetry, says so on standard error, and loses nothing
  /// it could keep. Each run's standard error is printed, as a user reads it.
  @Suite("A consumer package: what goes wrong is said, never fatal", .serialized)
  struct StoicConsumerDiagnosticsTests {
    typealias Run = StoicConsumerKillTests.Run

    /// Runs the consumer until it acknowledged `records` records, then sends SIGTERM and waits
    /// for its exit; returns the run.
    static func runThenTerminate(
      spool: String, endpoint: String, environment: [String: String], in directory: String,
      records: Int = 200
    ) async throws -> Run {
      let (package, build) = try await ConsumerPackage.withTraits.value
      try #require(build.status == 0, "the consumer did not build:\n\(build.output)")
      let run = try Run.start(
        package.executable("consumer"), spool: spool, endpoint: endpoint, generation: 0,
        in: directory, environment: environment)
      defer { if run.process.isRunning { kill(run.process.processIdentifier, SIGKILL) } }
      let clock = ContinuousClock()
      let ready = clock.now + .seconds(60)
      while run.process.isRunning, clock.now < ready, run.acknowledged.count < records {
        try await Task.sleep(for: .milliseconds(10))
      }
      try #require(run.process.isRunning, "the run ended early: \(run.text) \(run.errors)")
      kill(run.process.processIdentifier, SIGTERM)
      try #require(try await run.waitForExit(limit: .seconds(30)), "no exit after SIGTERM")
      return run
    }

    /// The `seq` of every record of the app's loop in the spool at `directory`, and its drop
    /// counts.
    static func spool(_ directory: String) throws -> (Set<String>, SpoolDropCounts) {
      let spool = try TelemetrySpool.open(at: directory)
      defer { try? spool.close() }
      return (Set(try StoicConsumerKillTests.spooled(spool)), spool.dropCounts)
    }

    @Test("a bad OTEL_* value: the service starts, spools, says so on standard error, exits 0")
    func badEnvironment() async throws {
      try await StoicTestSupport.withCollector("consumer-bad-env") { directory, _ in
        let spool = directory + "/spool"
        let run = try await Self.runThenTerminate(
          spool: spool, endpoint: "env",
          environment: [
            "OTEL_EXPORTER_OTLP_ENDPOINT": "not a url", "OTEL_EXPORTER_OTLP_TIMEOUT": "abc",
          ], in: directory)
        print("consumer, OTEL_EXPORTER_OTLP_ENDPOINT='not a url', standard error:\n\(run.errors)")
        #expect(run.process.terminationReason == .exit && run.process.terminationStatus == 0)
        #expect(
          run.errors.contains(
            "stoic: warning: an OTEL_* value is invalid and ignored as if unset "
              + "(forwarding.setting_ignored variable=OTEL_EXPORTER_OTLP_ENDPOINT"),
          "\(run.errors)")
        #expect(!run.errors.contains("not a url"))
        #expect(!run.errors.contains("Fatal error"))
        let (spooled, _) = try Self.spool(spool)
        let missing = Set(run.acknowledged).subtracting(spooled)
        #expect(missing.isEmpty, "\(missing.count) returned records not in the spool")
      }
    }

    @Test("a 401 endpoint: one clear line on standard error, the records kept")
    func refusedCredentials() async throws {
      let directory = try StoicTestSupport.scratchDirectory("consumer-401")
      defer { try? FileManager.default.removeItem(atPath: directory) }
      let collector = try await Collector.start(
        CollectorOptions(dataDirectory: directory + "/collector", token: "right-t0ken"))
      let spool = directory + "/spool"
      let run: Run
      do {
        run = try await Self.runThenTerminate(
          spool: spool, endpoint: collector.baseURL, environment: [:], in: directory)
      } catch {
        try? await collector.stop()
        throw error
      }
      try await collector.stop()
      print("consumer, a 401 endpoint, standard error:\n\(run.errors)")
      #expect(run.process.terminationReason == .exit && run.process.terminationStatus == 0)
      let refused = run.errors.split(separator: "\n").filter {
        $0.contains("forwarding.unauthorized")
      }
      #expect(refused.count == 1, "\(run.errors)")
      #expect(
        refused.first?.hasPrefix(
          "stoic: error: the receiver refused the credentials: check OTEL_EXPORTER_OTLP_HEADERS")
          == true)
      let (spooled, _) = try Self.spool(spool)
      let missing = Set(run.acknowledged).subtracting(spooled)
      #expect(missing.isEmpty, "\(missing.count) returned records not in the spool")
    }

    @Test("Stoic's service listed after the app's: the records after close counted, said once")
    func listedLast() async throws {
      try await StoicTestSupport.withCollector("consumer-listed-last") { directory, collector in
        let spool = directory + "/spool"
        let run = try await Self.runThenTerminate(
          spool: spool, endpoint: collector.baseURL, environment: ["CONSUMER_STOIC_LAST": "1"],
          in: directory)
        print("consumer, Stoic's service listed last, standard error:\n\(run.errors)")
        #expect(run.process.terminationReason == .exit && run.process.terminationStatus == 0)
        let said = run.errors.split(separator: "\n").filter {
          $0.contains("records logged after Stoic's shutdown are dropped and counted (after_close)")
        }
        #expect(said.count == 1, "\(run.errors)")
        let (_, drops) = try Self.spool(spool)
        // At least the app's last notice, logged after its loop.
        #expect(drops.afterClose >= 1)
        #expect(drops.diskError == 0)
      }
    }
  }
#endif
