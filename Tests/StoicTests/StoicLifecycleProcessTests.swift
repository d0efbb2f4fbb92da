// The lifecycle test runs `stoic-lifecycle-child`, which does its work only with the traits
// SwiftLog, SwiftMetrics and ServiceLifecycle.
#if SwiftLog && SwiftMetrics && ServiceLifecycle
  import Foundation
  import StoicCollector
  import StoicTelemetry
  import Testing

  #if canImport(Glibc)
    import Glibc
  #elseif canImport(Darwin)
    import Darwin
  #endif

  /// A real process runs Stoic in a `ServiceGroup` beside a service that logs and counts; it
  /// is sent SIGTERM: it exits within the shutdown timeout, and every record whose log call had
  /// returned is at the collector (once) or durable in the spool.
  @Suite("StoicService in a ServiceGroup, sent SIGTERM")
  struct StoicLifecycleProcessTests {
    typealias Support = StoicTestSupport

    /// The child executable beside the test bundle in the build directory.
    static var executable: URL {
      let name = "stoic-lifecycle-child"
      var directory = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        .deletingLastPathComponent()
      while !FileManager.default.fileExists(atPath: directory.appendingPathComponent(name).path),
        directory.path != "/"
      {
        directory = directory.deletingLastPathComponent()
      }
      return directory.appendingPathComponent(name)
    }

    /// The numbers of the `logged N` lines in `text`.
    static func announced(_ text: String) -> [Int] {
      text.split(separator: "\n").compactMap { line in
        line.hasPrefix("logged ") ? Int(line.dropFirst("logged ".count)) : nil
      }
    }

    @Test("SIGTERM: exits within the timeout, every returned record delivered or in the spool")
    func sigterm() async throws {
      try await Support.withCollector("lifecycle") { directory, collector in
        let outputPath = directory + "/child.out"
        _ = FileManager.default.createFile(atPath: outputPath, contents: nil)
        let child = Process()
        child.executableURL = Self.executable
        let timeout = Duration.seconds(5)
        child.arguments = [directory + "/spool", collector.baseURL, "5000"]
        child.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: outputPath))
        child.standardError = FileHandle.nullDevice
        try child.run()
        defer { if child.isRunning { kill(child.processIdentifier, SIGKILL) } }
        func output() -> String {
          String(
            decoding: FileManager.default.contents(atPath: outputPath) ?? Data(), as: UTF8.self)
        }
        let clock = ContinuousClock()
        let ready = clock.now + .seconds(60)
        while child.isRunning, clock.now < ready, (Self.announced(output()).last ?? 0) < 300 {
          try await Task.sleep(for: .milliseconds(20))
        }
        try #require(child.isRunning, "the child ended early: \(output())")
        kill(child.processIdentifier, SIGTERM)
        let signalled = clock.now
        while child.isRunning, clock.now < signalled + timeout + .seconds(10) {
          try await Task.sleep(for: .milliseconds(10))
        }
        let took = clock.now - signalled
        try #require(!child.isRunning, "the child did not exit after SIGTERM")
        #expect(took < timeout + .seconds(2), "exited \(took) after SIGTERM")
        #expect(child.terminationStatus == 0)
        let text = output()
        #expect(text.contains("exited"))
        let logged = Self.announced(text)
        let last = try #require(logged.last)
        #expect(logged == Array(0...last))

        let delivered = try Support.delivered(collector, label: "lifecycle")
        #expect(Set(delivered).count == delivered.count, "a record arrived twice")
        let spool = try TelemetrySpool.open(at: directory + "/spool")
        let spooled = try Support.spooled(spool, label: "lifecycle")
        try spool.close()
        let missing = Set(0...last).subtracting(delivered).subtracting(spooled)
        #expect(missing.isEmpty, "\(missing.count) records logged before the signal are lost")
        // With a collector that answers, the shutdown's drain delivers everything and the count.
        #expect(Set(delivered).isSuperset(of: 0...last))
        let counted = try Support.counterValue(collector, name: "lifecycle.records")
        #expect((counted ?? 0) >= Int64(last + 1))
      }
    }
  }
#endif
