import StoicStore
import StoicTesting
import Testing

/// The usage example from `CrashExplorer`'s documentation, compiled and run.
@Suite struct CrashExplorerExampleTests {
  /// The app's own "save settings" code from the example.
  static func save(_ text: String, to path: String, on disk: some FileSystem) throws(StoreError) {
    let temporary = path + ".tmp"
    let handle = try disk.open(temporary, .createOrOpen)
    defer { try? disk.close(handle) }
    try disk.truncate(handle, to: 0)
    try disk.write(handle, Array(text.utf8), at: 0)
    try disk.sync(handle)
    try disk.rename(temporary, to: path)
    try disk.syncDirectory(Path.directory(of: path))
  }

  @Test func saveSurvivesEveryCrash() {
    let report = CrashExplorer().explore(
      setup: { disk in try Self.save("old", to: "settings.txt", on: disk) },
      operation: { disk, recorder in
        try Self.save("new", to: "settings.txt", on: disk)
        recorder.acknowledge("new")
      },
      recover: { disk in
        try disk.readWholeFile("settings.txt").map { String(decoding: $0, as: UTF8.self) }
      },
      check: { value, context in
        let expected = context.acknowledged.isEmpty ? ["old", "new"] : ["new"]
        try context.require(
          value.map(expected.contains) ?? false, "found \(String(describing: value))")
      })
    #expect(report.passed, "\(report)")
    #expect(report.crashPoints == 7)
    #expect(report.imagesChecked > report.crashPoints)
  }
}
