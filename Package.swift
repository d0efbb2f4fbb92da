// swift-tools-version: 6.1
import PackageDescription

let strictSettings: [SwiftSetting] = [
  .swiftLanguageMode(.v6),
  .enableUpcomingFeature("ExistentialAny"),
  .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
  name: "Stoic",
  platforms: [.macOS(.v15), .iOS(.v18)],
  products: [
    .library(name: "StoicStore", targets: ["StoicStore"]),
    .library(name: "StoicTesting", targets: ["StoicTesting"]),
    .library(name: "StoicSettings", targets: ["StoicSettings"]),
    .library(name: "StoicTelemetry", targets: ["StoicTelemetry"]),
    .library(name: "StoicLogging", targets: ["StoicLogging"]),
    .library(name: "StoicMetrics", targets: ["StoicMetrics"]),
    .library(name: "StoicTracing", targets: ["StoicTracing"]),
    .library(name: "StoicForwarding", targets: ["StoicForwarding"]),
    .library(name: "Stoic", targets: ["Stoic"]),
    .library(name: "StoicCollector", targets: ["StoicCollector"]),
    .library(name: "StoicCLI", targets: ["StoicCLI"]),
    .executable(name: "stoic", targets: ["stoic"]),
    .executable(name: "stoic-collector", targets: ["stoic-collector"]),
    .executable(name: "stoic-agent", targets: ["stoic-agent"]),
  ],
  traits: [
    .trait(
      name: "SwiftLog",
      description: "Builds the swift-log LogHandler over the log spool (fetches apple/swift-log)."),
    .trait(
      name: "SwiftMetrics",
      description:
        "Builds the swift-metrics MetricsFactory over the metrics spool (fetches apple/swift-metrics)."
    ),
    .trait(
      name: "ServiceLifecycle",
      description:
        "Makes StoicService a swift-service-lifecycle Service (fetches swift-server/swift-service-lifecycle)."
    ),
    .trait(
      name: "Tracing",
      description:
        "Builds the swift-distributed-tracing Tracer over the span spool (fetches apple/swift-distributed-tracing)."
    ),
    .default(enabledTraits: []),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-log.git", from: "1.12.0"),
    .package(url: "https://github.com/apple/swift-metrics.git", from: "2.5.0"),
    .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.0.0"),
    .package(url: "https://github.com/apple/swift-distributed-tracing.git", from: "1.1.0"),
  ],
  targets: [
    .systemLibrary(
      name: "CStoicZstd",
      pkgConfig: "libzstd",
      providers: [.apt(["libzstd-dev"]), .brew(["zstd"])]
    ),
    .target(name: "CStoicCRC32C"),
    .systemLibrary(
      name: "CStoicZlib",
      pkgConfig: "zlib",
      providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]
    ),
    .systemLibrary(
      name: "CStoicDeflate",
      pkgConfig: "libdeflate",
      providers: [.apt(["libdeflate-dev"]), .brew(["libdeflate"])]
    ),
    .target(name: "CStoicAtomics"),
    .target(
      name: "StoicStore",
      dependencies: ["CStoicZstd", "CStoicCRC32C"],
      swiftSettings: strictSettings
    ),
    .target(
      name: "StoicTesting",
      dependencies: ["StoicStore", "CStoicAtomics"],
      swiftSettings: strictSettings
    ),
    .target(
      name: "StoicSettings",
      dependencies: ["StoicStore"],
      swiftSettings: strictSettings
    ),
    .target(
      name: "StoicTelemetry",
      dependencies: ["StoicStore", "CStoicAtomics"],
      swiftSettings: strictSettings
    ),
    .target(
      name: "StoicLogging",
      dependencies: [
        "StoicTelemetry",
        .product(name: "Logging", package: "swift-log", condition: .when(traits: ["SwiftLog"])),
      ],
      path: "Integrations/StoicLogging",
      swiftSettings: strictSettings
    ),
    .target(
      name: "StoicMetrics",
      dependencies: [
        "StoicTelemetry",
        .product(
          name: "CoreMetrics", package: "swift-metrics", condition: .when(traits: ["SwiftMetrics"])),
      ],
      path: "Integrations/StoicMetrics",
      swiftSettings: strictSettings
    ),
    .target(
      name: "StoicTracing",
      dependencies: [
        "StoicStore", "StoicTelemetry",
        .product(
          name: "Tracing", package: "swift-distributed-tracing",
          condition: .when(traits: ["Tracing"])),
      ],
      path: "Integrations/StoicTracing",
      swiftSettings: strictSettings
    ),
    // The one call: spool, swift-log, swift-metrics, forwarder, shutdown. Each trait-gated
    // reference has its own single-trait condition.
    .target(
      name: "Stoic",
      dependencies: [
        "StoicStore", "StoicTelemetry", "StoicForwarding", "StoicLogging", "StoicMetrics",
        "StoicTracing",
        .product(name: "Logging", package: "swift-log", condition: .when(traits: ["SwiftLog"])),
        .product(
          name: "Tracing", package: "swift-distributed-tracing",
          condition: .when(traits: ["Tracing"])),
        .product(
          name: "CoreMetrics", package: "swift-metrics", condition: .when(traits: ["SwiftMetrics"])),
        .product(
          name: "Metrics", package: "swift-metrics", condition: .when(traits: ["SwiftMetrics"])),
        .product(
          name: "ServiceLifecycle", package: "swift-service-lifecycle",
          condition: .when(traits: ["ServiceLifecycle"])),
      ],
      path: "Integrations/Stoic",
      swiftSettings: strictSettings
    ),
    // The child process the lifecycle test runs in a ServiceGroup and sends SIGTERM (it does
    // its work only with the traits SwiftLog, SwiftMetrics and ServiceLifecycle).
    .executableTarget(
      name: "stoic-lifecycle-child",
      dependencies: [
        "Stoic", "StoicForwarding",
        .product(name: "Logging", package: "swift-log", condition: .when(traits: ["SwiftLog"])),
        .product(
          name: "Metrics", package: "swift-metrics", condition: .when(traits: ["SwiftMetrics"])),
        .product(
          name: "ServiceLifecycle", package: "swift-service-lifecycle",
          condition: .when(traits: ["ServiceLifecycle"])),
      ],
      swiftSettings: strictSettings
    ),
    .target(
      name: "StoicCLI",
      dependencies: [
        "StoicStore", "StoicSettings", "StoicTelemetry", "StoicForwarding", "StoicCollector",
      ],
      swiftSettings: strictSettings
    ),
    .target(
      name: "StoicForwarding",
      dependencies: ["StoicStore", "StoicTelemetry", "CStoicZlib", "CStoicDeflate"],
      swiftSettings: strictSettings
    ),
    .target(
      name: "StoicCollector",
      dependencies: ["StoicStore", "StoicForwarding"],
      swiftSettings: strictSettings
    ),
    .executableTarget(
      name: "stoic-collector",
      dependencies: ["StoicCollector"],
      path: "Examples/stoic-collector",
      swiftSettings: strictSettings
    ),
    .executableTarget(
      name: "stoic-agent",
      dependencies: ["StoicForwarding", "StoicTelemetry", "StoicStore"],
      path: "Examples/stoic-agent",
      swiftSettings: strictSettings
    ),
    .executableTarget(
      name: "stoic",
      dependencies: ["StoicCLI"],
      swiftSettings: strictSettings
    ),
    // The child process the metrics spool's SIGKILL test starts and kills.
    .executableTarget(
      name: "stoic-metrics-child",
      dependencies: ["StoicTelemetry", "StoicStore"],
      swiftSettings: strictSettings
    ),
    .target(
      name: "StoicPowerCut",
      dependencies: [
        "StoicStore", "StoicSettings", "StoicTesting", "StoicTelemetry", "StoicForwarding",
      ],
      swiftSettings: strictSettings
    ),
    .executableTarget(
      name: "stoic-powercut-workload",
      dependencies: ["StoicPowerCut"],
      swiftSettings: strictSettings
    ),
    .executableTarget(
      name: "stoic-telemetry-child",
      dependencies: ["StoicTelemetry"],
      swiftSettings: strictSettings
    ),
    .testTarget(
      name: "StoicStoreTests",
      dependencies: ["StoicStore", "StoicTesting", "CStoicAtomics"],
      swiftSettings: strictSettings
    ),
    .testTarget(
      name: "StoicTestingTests",
      dependencies: ["StoicStore", "StoicTesting", "CStoicAtomics"],
      swiftSettings: strictSettings
    ),
    .testTarget(
      name: "StoicSettingsTests",
      dependencies: ["StoicSettings", "StoicStore", "StoicTesting"],
      swiftSettings: strictSettings
    ),
    .testTarget(
      name: "StoicTelemetryTests",
      dependencies: [
        "StoicTelemetry", "StoicStore", "StoicTesting", "stoic-metrics-child",
        "stoic-telemetry-child",
      ],
      swiftSettings: strictSettings
    ),
    // The swift-metrics adapter's tests: built (non-empty) only with the `SwiftMetrics` trait.
    .testTarget(
      name: "StoicMetricsTests",
      dependencies: [
        "StoicMetrics", "StoicTelemetry", "StoicStore", "StoicTesting",
        .product(
          name: "CoreMetrics", package: "swift-metrics", condition: .when(traits: ["SwiftMetrics"])),
      ],
      swiftSettings: strictSettings
    ),
    // The swift-log adapter's tests: built (non-empty) only with the `SwiftLog` trait.
    .testTarget(
      name: "StoicLoggingTests",
      dependencies: [
        "StoicLogging", "StoicTelemetry", "StoicStore", "StoicTesting",
        .product(name: "Logging", package: "swift-log", condition: .when(traits: ["SwiftLog"])),
      ],
      swiftSettings: strictSettings
    ),
    .testTarget(
      name: "StoicTracingTests",
      dependencies: [
        "StoicTracing", "StoicTelemetry", "StoicStore", "StoicTesting",
        .product(
          name: "Tracing", package: "swift-distributed-tracing",
          condition: .when(traits: ["Tracing"])),
      ],
      swiftSettings: strictSettings
    ),
    // The one call's tests: with the traits SwiftLog and SwiftMetrics (the lifecycle test also
    // with ServiceLifecycle); a default build compiles the trait-free part only.
    .testTarget(
      name: "StoicTests",
      dependencies: [
        "Stoic", "StoicForwarding", "StoicTelemetry", "StoicStore", "StoicTesting",
        "StoicCollector", "stoic-lifecycle-child", "StoicTracing",
        .product(name: "Logging", package: "swift-log", condition: .when(traits: ["SwiftLog"])),
        .product(
          name: "Metrics", package: "swift-metrics", condition: .when(traits: ["SwiftMetrics"])),
        .product(
          name: "Tracing", package: "swift-distributed-tracing",
          condition: .when(traits: ["Tracing"])),
      ],
      swiftSettings: strictSettings
    ),
    .testTarget(
      name: "StoicEventCatalogTests",
      dependencies: ["StoicStore", "StoicSettings", "StoicTelemetry", "StoicForwarding"],
      swiftSettings: strictSettings
    ),
    .testTarget(
      name: "StoicForwardingTests",
      dependencies: [
        "StoicForwarding", "StoicStore", "StoicTelemetry", "StoicTesting", "StoicTestSupport",
      ],
      swiftSettings: strictSettings
    ),
    .testTarget(
      name: "StoicCollectorTests",
      dependencies: [
        "StoicCollector", "StoicForwarding", "StoicStore", "StoicTesting", "StoicTestSupport",
        "stoic-collector",
      ],
      swiftSettings: strictSettings
    ),
    .testTarget(
      name: "StoicCLITests",
      dependencies: [
        "stoic", "StoicCLI", "StoicStore", "StoicSettings", "StoicTelemetry", "StoicTesting",
        "stoic-telemetry-child", "StoicForwarding", "StoicCollector",
      ],
      swiftSettings: strictSettings
    ),
    // Real processes on loopback: the agent, the collector and the tool.
    .testTarget(
      name: "StoicEndToEndTests",
      dependencies: [
        "stoic-agent", "stoic-collector", "stoic", "StoicCollector", "StoicForwarding",
        "StoicTelemetry", "StoicStore", "StoicTesting",
      ],
      swiftSettings: strictSettings
    ),
    // The tests' Python (.build/venv from scripts/bootstrap) and the third-party OpenTelemetry
    // tools in it, run against the forwarder and the example collector; the OTLP requests and
    // decoder inputs the forwarding and collector tests share.
    .target(
      name: "StoicTestSupport", dependencies: ["StoicForwarding", "StoicTesting"],
      path: "Tests/StoicTestSupport", swiftSettings: strictSettings),
    .testTarget(
      name: "StoicInteropTests",
      dependencies: [
        "StoicTestSupport", "StoicCollector", "StoicForwarding", "StoicTelemetry", "StoicStore",
        "stoic-agent",
      ],
      swiftSettings: strictSettings
    ),
    .testTarget(
      name: "StoicPowerCutTests",
      dependencies: ["StoicPowerCut", "stoic-powercut-workload", "StoicStore"],
      swiftSettings: strictSettings
    ),
  ]
)
