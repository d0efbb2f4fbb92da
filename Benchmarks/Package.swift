// swift-tools-version: 6.1
import PackageDescription

// The benchmark lives in its own package so that only it links SQLite: users of the library
// never need libsqlite3.
let strictSettings: [SwiftSetting] = [
  .swiftLanguageMode(.v6),
  .enableUpcomingFeature("ExistentialAny"),
  .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
  name: "StoicBenchmarks",
  platforms: [.macOS(.v15)],
  products: [
    .executable(name: "stoic-bench", targets: ["stoic-bench"])
  ],
  dependencies: [
    .package(name: "Stoic", path: "..")
  ],
  targets: [
    .systemLibrary(
      name: "CSQLite",
      pkgConfig: "sqlite3",
      providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
    ),
    .target(name: "CBenchSystem"),
    .executableTarget(
      name: "stoic-bench",
      dependencies: [
        "CBenchSystem",
        "CSQLite",
        .product(name: "StoicStore", package: "Stoic"),
        .product(name: "StoicTelemetry", package: "Stoic"),
        .product(name: "StoicForwarding", package: "Stoic"),
        .product(name: "StoicCollector", package: "Stoic"),
      ],
      swiftSettings: strictSettings
    ),
  ]
)
