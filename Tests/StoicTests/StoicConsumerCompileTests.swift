// Builds separate packages that depend on Stoic: only in a build with the traits (CI's trait
// step), where the vendored upstream packages are at hand.
#if SwiftLog && SwiftMetrics && ServiceLifecycle
  import Foundation
  import Testing

  /// What a user's package meets at compile time: without the traits, the compiler's error for
  /// the handlers names the trait to turn on; with them, every Swift snippet of the README's
  /// "Adopting Stoic in a service" compiles as written.
  @Suite("A consumer package's build: the traits off, the README's snippets")
  struct StoicConsumerCompileTests {
    @Test(
      "traits off: the compiler's errors for StoicLogHandler and StoicMetricsFactory name the trait"
    )
    func traitsOff() async throws {
      let target = ConsumerPackage.Target(
        name: "traitsoff",
        files: [
          "main.swift": """
          import StoicLogging
          import StoicMetrics
          import StoicTelemetry

          let spool = try TelemetrySpool.open(at: "/tmp/never-opened")
          let handler = StoicLogHandler(label: "app", spool: spool)
          let factory = StoicMetricsFactory(spool: spool)
          print(handler, factory)

          """
        ],
        products: [.stoic("StoicLogging"), .stoic("StoicMetrics"), .stoic("StoicTelemetry")])
      let package = try await ConsumerPackage.make(traits: [], targets: [target])
      let build = try await package.build(product: "traitsoff")
      #expect(build.status != 0, "a build without the traits compiled the handlers")
      let errors = build.output.split(separator: "\n").filter { $0.contains("error:") }
      let logging = errors.first { $0.contains("'StoicLogHandler' is unavailable") }
      #expect(
        logging?.contains("package trait SwiftLog") == true,
        "no error naming the trait SwiftLog:\n\(errors.joined(separator: "\n"))")
      #expect(logging?.contains("traits: [\"SwiftLog\"]") == true)
      let metrics = errors.first { $0.contains("'StoicMetricsFactory' is unavailable") }
      #expect(
        metrics?.contains("package trait SwiftMetrics") == true,
        "no error naming the trait SwiftMetrics:\n\(errors.joined(separator: "\n"))")
      #expect(!errors.contains { $0.contains("cannot find 'StoicLogHandler' in scope") })
    }

    @Test("the README's adoption snippets compile as written, in a package with the traits")
    func readmeSnippets() async throws {
      let snippets = ConsumerSources.snippets(try ConsumerSources.adoptionSection())
      #expect(snippets.filter { $0.hasPrefix("// swift-tools-version") }.count == 1)
      let code = try ConsumerSources.readmeSnippets()
      #expect(code.count >= 3, "the section's Swift snippets: \(code.count)")
      let (_, build) = try await ConsumerPackage.withTraits.value
      #expect(build.status == 0, "the README's snippets did not compile:\n\(build.output)")
      let snippetLines = build.output.split(separator: "\n").filter {
        $0.contains("/Sources/snippet") && ($0.contains("warning:") || $0.contains("error:"))
      }
      #expect(snippetLines.isEmpty, "\(snippetLines.joined(separator: "\n"))")

      // The manifest as written names the products the code snippets use, from the identity
      // `stoic`, with the traits.
      let manifest = try #require(snippets.first { $0.hasPrefix("// swift-tools-version") })
      for product in ["Stoic", "StoicForwarding"] {
        #expect(manifest.contains(".product(name: \"\(product)\", package: \"stoic\")"))
      }
      #expect(manifest.contains("traits: [\"SwiftLog\", \"SwiftMetrics\"]"))
      #expect(manifest.contains(".product(name: \"Metrics\", package: \"swift-metrics\")"))
    }
  }
#endif
