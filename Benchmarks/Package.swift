// swift-tools-version: 6.1
import PackageDescription

// The benchmark lives in its own package so that only it links SQLite: users of the library
// never need libsqlite3. It enables Stoic's traits and depends on the real swift-log, so that the
// log call is measured through `Logger` against swift-log's own handlers.
let strictSettings: [SwiftSetting] = [
  .swiftLanguageMode(.v6),
  .enableUpcomingFeature("ExistentialAny"),
  .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
  name: "StoicBenchmarks",
  platforms: [.macOS(.v15)],
  products: [
    .executable(name: "stoic-bench", targets: ["stoic-bench"]),
    // What the benchmark's peers built apart (SwiftOTelPeer/) share with it: the log line,
    // the clocks, the shared counter, the allocation count.
    .library(name: "BenchKit", targets: ["BenchKit"]),
  ],
  dependencies: [
    .package(name: "Stoic", path: "..", traits: ["SwiftLog", "SwiftMetrics", "Tracing"]),
    .package(url: "https://github.com/apple/swift-log.git", from: "1.12.0"),
    .package(url: "https://github.com/apple/swift-distributed-tracing.git", from: "1.1.0"),
  ],
  targets: [
    .systemLibrary(
      name: "CSQLite",
      pkgConfig: "sqlite3",
      providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
    ),
    .target(name: "CBenchSystem"),
    .target(name: "BenchKit", dependencies: ["CBenchSystem"], swiftSettings: strictSettings),
    .executableTarget(
      name: "stoic-bench",
      dependencies: [
        "BenchKit",
        "CBenchSystem",
        "CSQLite",
        .product(name: "StoicStore", package: "Stoic"),
        .product(name: "StoicTelemetry", package: "Stoic"),
        .product(name: "StoicForwarding", package: "Stoic"),
        .product(name: "StoicTesting", package: "Stoic"),
        .product(name: "StoicCollector", package: "Stoic"),
        .product(name: "StoicLogging", package: "Stoic"),
        .product(name: "StoicTracing", package: "Stoic"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "Tracing", package: "swift-distributed-tracing"),
        .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
      ],
      swiftSettings: strictSettings
    ),
  ]
)
