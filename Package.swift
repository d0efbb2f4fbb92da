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
    .executable(name: "stoic", targets: ["stoic"]),
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
    .default(enabledTraits: []),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-log.git", from: "1.12.0"),
    .package(url: "https://github.com/apple/swift-metrics.git", from: "2.5.0"),
  ],
  targets: [
    .systemLibrary(
      name: "CStoicZstd",
      pkgConfig: "libzstd",
      providers: [.apt(["libzstd-dev"]), .brew(["zstd"])]
    ),
    .target(name: "CStoicCRC32C"),
    .target(
      name: "StoicStore",
      dependencies: ["CStoicZstd", "CStoicCRC32C"],
      swiftSettings: strictSettings
    ),
    .target(
      name: "StoicTesting",
      dependencies: ["StoicStore"],
      swiftSettings: strictSettings
    ),
    .target(
      name: "StoicSettings",
      dependencies: ["StoicStore"],
      swiftSettings: strictSettings
    ),
    .target(
      name: "StoicTelemetry",
      dependencies: ["StoicStore"],
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
    .executableTarget(
      name: "stoic",
      dependencies: ["StoicStore"],
      swiftSettings: strictSettings
    ),
    .executableTarget(
      name: "stoic-telemetry-child",
      dependencies: ["StoicTelemetry"],
      swiftSettings: strictSettings
    ),
    .testTarget(
      name: "StoicStoreTests",
      dependencies: ["StoicStore", "StoicTesting"],
      swiftSettings: strictSettings
    ),
    .testTarget(
      name: "StoicTestingTests",
      dependencies: ["StoicStore", "StoicTesting"],
      swiftSettings: strictSettings
    ),
    .testTarget(
      name: "StoicSettingsTests",
      dependencies: ["StoicSettings", "StoicStore", "StoicTesting"],
      swiftSettings: strictSettings
    ),
    .testTarget(
      name: "StoicTelemetryTests",
      dependencies: ["StoicTelemetry", "StoicStore", "StoicTesting", "stoic-telemetry-child"],
      swiftSettings: strictSettings
    ),
    .testTarget(
      name: "StoicLoggingTests",
      dependencies: [
        "StoicLogging", "StoicTelemetry", "StoicStore", "StoicTesting",
        .product(name: "Logging", package: "swift-log", condition: .when(traits: ["SwiftLog"])),
      ],
      swiftSettings: strictSettings
    ),
    .testTarget(
      name: "StoicEventCatalogTests",
      dependencies: ["StoicStore", "StoicSettings", "StoicTelemetry"],
      swiftSettings: strictSettings
    ),
    .testTarget(
      name: "StoicCLITests",
      dependencies: ["stoic", "StoicStore"],
      swiftSettings: strictSettings
    ),
  ]
)
