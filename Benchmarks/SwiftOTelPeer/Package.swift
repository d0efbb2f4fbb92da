// swift-tools-version: 6.1
import PackageDescription

// The swift-otel peer of the benchmark: a package of its own, so that neither the library nor
// `stoic-bench` depends on swift-otel (and its NIO, BoringSSL and swift-protobuf). `stoic-bench`
// runs the executable this builds as a child process, configured as swift-otel's README shows.
let package = Package(
  name: "SwiftOTelPeer",
  platforms: [.macOS(.v15)],
  products: [
    .executable(name: "swift-otel-peer", targets: ["swift-otel-peer"])
  ],
  dependencies: [
    .package(path: ".."),
    .package(
      url: "https://github.com/swift-otel/swift-otel.git", exact: "1.5.0", traits: ["OTLPHTTP"]),
    .package(url: "https://github.com/apple/swift-log.git", from: "1.12.0"),
    .package(url: "https://github.com/apple/swift-metrics.git", from: "2.5.0"),
    .package(url: "https://github.com/apple/swift-distributed-tracing.git", from: "1.1.0"),
    .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.0.0"),
  ],
  targets: [
    .executableTarget(
      name: "swift-otel-peer",
      dependencies: [
        .product(name: "BenchKit", package: "Benchmarks"),
        .product(name: "OTel", package: "swift-otel"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "Metrics", package: "swift-metrics"),
        .product(name: "Tracing", package: "swift-distributed-tracing"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
      ],
      swiftSettings: [.swiftLanguageMode(.v6)]
    )
  ]
)
