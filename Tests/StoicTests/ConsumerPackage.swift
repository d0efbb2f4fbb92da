import Foundation

/// A separate Swift package that depends on Stoic by path, as a user's package does: written by
/// a test outside the repository's sources, under the build directory
/// (`.build/consumer/<traits>/package`, rewritten by every test run), built with `swift build`,
/// its executables run as child processes.
///
/// The package and its scratch path (`.build/consumer/<traits>/scratch`) stay at the same
/// place from one run to the next, so a second test run only compiles what changed (SwiftPM
/// rebuilds every module of a package whose root moved); the tests that need the traits share
/// one package and one build (``withTraits``). The vendored upstream packages
/// (`../shared/vendor` beside the repository, as `.ci/run` finds them) are set as the package's
/// mirrors, cloned once into the repository's `.build/vendor-mirrors`; without
/// `../shared/vendor` SwiftPM fetches from the URLs.
struct ConsumerPackage: Sendable {
  /// One executable target: its name, its files (name to text) and the products it uses.
  struct Target: Sendable {
    var name: String
    var files: [String: String]
    var products: [Product]
  }

  /// A product of Stoic or of an upstream package.
  enum Product: Hashable, Sendable {
    case stoic(String)
    case swiftLog
    case metrics
    case serviceLifecycle
    case tracing

    /// The manifest's `.product(name:package:)` for it.
    func manifest(stoicIdentity: String) -> String {
      switch self {
      case .stoic(let name): ".product(name: \"\(name)\", package: \"\(stoicIdentity)\")"
      case .swiftLog: ".product(name: \"Logging\", package: \"swift-log\")"
      case .metrics: ".product(name: \"Metrics\", package: \"swift-metrics\")"
      case .serviceLifecycle:
        ".product(name: \"ServiceLifecycle\", package: \"swift-service-lifecycle\")"
      case .tracing: ".product(name: \"Tracing\", package: \"swift-distributed-tracing\")"
      }
    }
  }

  /// What a build printed and how it ended.
  struct BuildResult: Sendable {
    var status: Int32
    var output: String
    var seconds: Double
  }

  /// The repository's root (this file is `Tests/StoicTests/ConsumerPackage.swift`).
  static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().standardizedFileURL.path

  /// `use-mirrors` of `../shared/vendor` beside the repository, when it exists.
  static var useMirrors: String? {
    let path = URL(fileURLWithPath: repositoryRoot).deletingLastPathComponent()
      .appendingPathComponent("shared/vendor/use-mirrors").path
    return FileManager.default.isExecutableFile(atPath: path) ? path : nil
  }

  /// The package's directory.
  let directory: String
  /// Stoic's traits the package turns on.
  let traits: [String]
  /// Its executable targets.
  let targets: [Target]

  /// Stoic's package identity: the folder's name, as SwiftPM derives it for a path dependency.
  static var stoicIdentity: String {
    URL(fileURLWithPath: repositoryRoot).lastPathComponent.lowercased()
  }

  /// The folder of the package and of its scratch path, for these traits.
  static func folder(traits: [String]) -> String {
    let name = traits.isEmpty ? "no-traits" : traits.sorted().joined(separator: "-")
    return repositoryRoot + "/.build/consumer/" + name
  }

  /// The scratch path of its builds.
  var scratchPath: String {
    URL(fileURLWithPath: directory).deletingLastPathComponent().path + "/scratch"
  }

  /// The package with Stoic's traits on (``ConsumerSources/traits``): the service and the
  /// README's snippets, made and built (debug) once per test process for every test that
  /// needs it.
  static let withTraits = Task { () async throws -> (ConsumerPackage, BuildResult) in
    let package = try await make(
      traits: ConsumerSources.traits,
      targets: [ConsumerSources.service] + (try ConsumerSources.readmeSnippets()))
    return (package, try await package.build())
  }

  /// Writes the package with `traits` (its manifest, its sources, its mirrors), replacing what
  /// an earlier run wrote there.
  static func make(traits: [String], targets: [Target]) async throws -> ConsumerPackage {
    let directory = folder(traits: traits) + "/package"
    let package = ConsumerPackage(directory: directory, traits: traits, targets: targets)
    let fileManager = FileManager.default
    try? fileManager.removeItem(atPath: directory + "/Sources")
    try fileManager.createDirectory(atPath: directory, withIntermediateDirectories: true)
    try package.manifest.write(
      toFile: directory + "/Package.swift", atomically: true, encoding: .utf8)
    for target in targets {
      let sources = directory + "/Sources/" + target.name
      try fileManager.createDirectory(atPath: sources, withIntermediateDirectories: true)
      for (name, text) in target.files {
        try text.write(toFile: sources + "/" + name, atomically: true, encoding: .utf8)
      }
    }
    if let useMirrors {
      let result = try await run(
        useMirrors, [directory, repositoryRoot + "/.build/vendor-mirrors"],
        output: directory + "/mirrors.log")
      guard result.status == 0 else {
        throw ConsumerError.mirrors(result.output)
      }
    }
    return package
  }

  /// The manifest: Stoic by path with the traits, the upstream packages the targets use.
  var manifest: String {
    let used = Set(targets.flatMap(\.products))
    var dependencies = [
      ".package(path: \"\(Self.repositoryRoot)\", traits: [\(traits.map { "\"\($0)\"" }.joined(separator: ", "))])"
    ]
    if used.contains(.swiftLog) || used.contains(.serviceLifecycle) {
      dependencies.append(
        ".package(url: \"https://github.com/apple/swift-log.git\", from: \"1.12.0\")")
    }
    if used.contains(.metrics) {
      dependencies.append(
        ".package(url: \"https://github.com/apple/swift-metrics.git\", from: \"2.5.0\")")
    }
    if used.contains(.serviceLifecycle) {
      dependencies.append(
        ".package(url: \"https://github.com/swift-server/swift-service-lifecycle.git\", from: \"2.0.0\")"
      )
    }
    if used.contains(.tracing) {
      dependencies.append(
        ".package(url: \"https://github.com/apple/swift-distributed-tracing.git\", from: \"1.1.0\")"
      )
    }
    let targetLines = targets.map { target in
      let products = target.products.map { $0.manifest(stoicIdentity: Self.stoicIdentity) }
      return
        "    .executableTarget(name: \"\(target.name)\", dependencies: [\(products.joined(separator: ", "))]),"
    }
    return """
      // swift-tools-version: 6.1
      import PackageDescription

      let package = Package(
        name: "StoicConsumer",
        platforms: [.macOS(.v15)],
        dependencies: [
          \(dependencies.joined(separator: ",\n    "))
        ],
        targets: [
      \(targetLines.joined(separator: "\n"))
        ]
      )

      """
  }

  /// `swift build` of `product` (every target when `nil`), in the shared scratch path.
  func build(product: String? = nil, configuration: String = "debug") async throws -> BuildResult {
    var arguments = [
      "swift", "build", "--package-path", directory, "--scratch-path", scratchPath,
      "-c", configuration,
    ]
    if let product { arguments += ["--product", product] }
    return try await Self.run("/usr/bin/env", arguments, output: directory + "/build.log")
  }

  /// The built executable `name`.
  func executable(_ name: String, configuration: String = "debug") -> String {
    scratchPath + "/" + configuration + "/" + name
  }

  /// Runs `executable` with `arguments`, its output (both streams) into the file `output`,
  /// waiting without blocking a thread.
  static func run(_ executable: String, _ arguments: [String], output: String) async throws
    -> BuildResult
  {
    _ = FileManager.default.createFile(atPath: output, contents: nil)
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
    defer { try? handle.close() }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.standardOutput = handle
    process.standardError = handle
    process.standardInput = FileHandle.nullDevice
    let started = ContinuousClock.now
    let status = try await withCheckedThrowingContinuation {
      (continuation: CheckedContinuation<Int32, any Error>) in
      process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
      do { try process.run() } catch {
        process.terminationHandler = nil
        continuation.resume(throwing: error)
      }
    }
    let elapsed = ContinuousClock.now - started
    let text = String(
      decoding: FileManager.default.contents(atPath: output) ?? Data(), as: UTF8.self)
    let seconds =
      Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    return BuildResult(status: status, output: text, seconds: seconds)
  }
}

/// Why a consumer package could not be made.
enum ConsumerError: Error {
  /// `use-mirrors` failed, with its output.
  case mirrors(String)
  /// The README has no section with this heading.
  case noSection(String)
}
