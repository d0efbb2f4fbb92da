import Foundation

/// The sources of the consumer packages the tests build (``ConsumerPackage``), written as a
/// user writes them.
enum ConsumerSources {
  /// Stoic's traits the service consumer turns on.
  static let traits = ["SwiftLog", "SwiftMetrics", "ServiceLifecycle", "Tracing"]

  /// The service: set up in three lines (the one call, a `ServiceGroup` with the app's own
  /// service, its run) and shut down in one (the group's SIGTERM already ran the shutdown; the
  /// call returns its report). Each unit of the app's work `GENERATION.N` is a span
  /// (`unit GENERATION.N`, through swift-distributed-tracing's `withSpan`) holding a child
  /// span (`child GENERATION.N`), in which it logs a record through swift-log's `Logger`
  /// (metadata `seq`: `GENERATION.N`), counts it through swift-metrics' `Counter`
  /// (`consumer.records`) and waits a millisecond. It prints `started N` once the unit's span
  /// started, `child-started N` once the child's did, `logged N` after the log and count calls
  /// returned, `child-ended N` and `ended N` after each span's end returned.
  ///
  /// After its loop it logs a last `notice` ("work stopped"), as services do.
  ///
  /// Usage: `consumer SPOOL_DIRECTORY ENDPOINT GENERATION`; `ENDPOINT` `env` leaves the
  /// exporter to the `OTEL_*` variables. With `CONSUMER_STOIC_LAST=1` in the environment the
  /// group lists Stoic's service after the app's (the mistake: Stoic then shuts down first).
  static let service = Target(
    name: "consumer",
    files: [
      "main.swift": """
      import Logging
      import Metrics
      import ServiceLifecycle
      import Stoic
      import StoicForwarding
      import Tracing

      #if canImport(Glibc)
        import Glibc
      #elseif canImport(Darwin)
        import Darwin
      #endif

      /// Writes `line` to stdout at once (no buffer a SIGKILL could lose).
      func say(_ line: String) {
        let bytes = Array((line + "\\n").utf8)
        _ = bytes.withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
      }

      /// The app's own work, until the group shuts down gracefully.
      struct Work: Service {
        let generation: String

        func run() async throws {
          let logger = Logger(label: "consumer.work")
          let records = Counter(label: "consumer.records")
          await cancelWhenGracefulShutdown {
            var index = 0
            while !Task.isCancelled {
              let seq = "\\(generation).\\(index)"
              await withSpan("unit \\(seq)") { _ in
                say("started \\(seq)")
                await withSpan("child \\(seq)") { _ in
                  say("child-started \\(seq)")
                  logger.info("record \\(seq)", metadata: ["seq": "\\(seq)"])
                  records.increment()
                  say("logged \\(seq)")
                  try? await Task.sleep(for: .milliseconds(1))
                }
                say("child-ended \\(seq)")
              }
              say("ended \\(seq)")
              index += 1
            }
          }
          logger.notice("work stopped")
        }
      }

      let arguments = CommandLine.arguments
      guard arguments.count == 4 else {
        say("usage: consumer SPOOL_DIRECTORY ENDPOINT GENERATION")
        exit(2)
      }

      // Setup: three lines (the second only chooses the order the tests need).
      let telemetry = try await Stoic.bootstrap(directory: arguments[1]) { if arguments[2] != "env" { $0.exporter = OTLPExporterConfiguration(endpoint: arguments[2]) } }
      let services: [any Service] = getenv("CONSUMER_STOIC_LAST") == nil ? [telemetry, Work(generation: arguments[3])] : [Work(generation: arguments[3]), telemetry]
      let group = ServiceGroup(services: services, gracefulShutdownSignals: [.sigterm], logger: Logger(label: "consumer"))
      try await group.run()
      // Shutdown: one line (SIGTERM already ran it in the group; this returns its report).
      let report = await telemetry.shutdown(timeout: .seconds(5))

      say("shutdown delivered=\\(report.delivered.logRecordsDelivered) left=\\(report.logRecordsLeft) errors=\\(report.errors.count) took=\\(report.duration)")

      """
    ],
    products: [
      .stoic("Stoic"), .stoic("StoicForwarding"), .swiftLog, .metrics, .serviceLifecycle, .tracing,
    ])

  typealias Target = ConsumerPackage.Target

  /// The README's section on adopting Stoic, up to the next section of its level.
  static func adoptionSection() throws -> String {
    let readme = try String(
      contentsOfFile: ConsumerPackage.repositoryRoot + "/README.md", encoding: .utf8)
    let heading = "## Adopting Stoic in a service\n"
    let start = try readmeRange(readme, heading)
    let rest = readme[start.upperBound...]
    let end = rest.range(of: "\n## ")?.lowerBound ?? rest.endIndex
    return String(rest[..<end])
  }

  /// The section's ```swift blocks, in order.
  static func snippets(_ section: String) -> [String] {
    var blocks: [String] = []
    var current: [Substring]?
    for line in section.split(separator: "\n", omittingEmptySubsequences: false) {
      if current == nil, line == "```swift" {
        current = []
      } else if let lines = current, line == "```" {
        blocks.append(lines.joined(separator: "\n") + "\n")
        current = nil
      } else {
        current?.append(line)
      }
    }
    return blocks
  }

  /// Where `heading` is in `readme`.
  static func readmeRange(_ readme: String, _ heading: String) throws -> Range<String.Index> {
    guard let range = readme.range(of: heading) else { throw ConsumerError.noSection(heading) }
    return range
  }

  /// The section's Swift snippets but the manifest, each an executable target of its own
  /// (`snippet1`, …): one with `@main` in a file of its own, one with top-level code as
  /// `main.swift`.
  static func readmeSnippets() throws -> [Target] {
    let code = snippets(try adoptionSection()).filter { !$0.hasPrefix("// swift-tools-version") }
    return code.enumerated().map { index, text in
      Target(
        name: "snippet\(index + 1)",
        files: [text.contains("@main") ? "Snippet.swift" : "main.swift": text],
        products: [
          .stoic("Stoic"), .stoic("StoicForwarding"), .swiftLog, .metrics, .serviceLifecycle,
        ])
    }
  }
}
