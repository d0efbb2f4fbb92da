// swift-tools-version: 6.1
import PackageDescription

// The fuzz targets live in their own package, so the main package's build and tests never see
// libFuzzer. Build them through `scripts/fuzz`, which passes what a fuzzer build needs to every
// target, the library's included: `-sanitize=fuzzer,address` (coverage and AddressSanitizer)
// and `-enable-testing` (the targets reuse the library's internal encoders and decoders).
let strictSettings: [SwiftSetting] = [
  .swiftLanguageMode(.v6),
  .enableUpcomingFeature("ExistentialAny"),
  .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
  name: "StoicFuzz",
  platforms: [.macOS(.v15)],
  products: [
    .executable(name: "stoic-fuzz", targets: ["StoicFuzz"])
  ],
  dependencies: [
    .package(name: "Stoic", path: "..")
  ],
  targets: [
    .target(name: "CFuzzDriver"),
    .executableTarget(
      name: "StoicFuzz",
      dependencies: [
        "CFuzzDriver",
        .product(name: "StoicStore", package: "Stoic"),
        .product(name: "StoicSettings", package: "Stoic"),
        .product(name: "StoicTesting", package: "Stoic"),
        .product(name: "StoicTelemetry", package: "Stoic"),
        .product(name: "StoicForwarding", package: "Stoic"),
        .product(name: "StoicCollector", package: "Stoic"),
        .product(name: "StoicCLI", package: "Stoic"),
      ],
      swiftSettings: strictSettings
    ),
  ]
)
