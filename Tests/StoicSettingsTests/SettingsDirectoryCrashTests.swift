import StoicSettings
import StoicStore
import StoicTesting
import Testing

/// A settings file whose directories do not exist yet: the first update creates them, and
/// once it returned a power cut at any point keeps the file, directories and all.
@Suite struct SettingsDirectoryCrashTests {
  /// Two levels that do not exist yet.
  static let path = "/config/app/prefs.json"

  @Test func firstUpdateCreatesEveryMissingLevelDurably() {
    let new = Prefs(scrollSpeed: 900, theme: .dark, name: "New")
    let report = CrashExplorer().explore(
      operation: { disk, recorder in
        let store = try SettingsStore.open(at: Self.path, schema: Prefs.schema, fileSystem: disk)
        try store.update { $0 = new }
        recorder.acknowledge("new")
      },
      recover: { disk in
        try SettingsStore.open(at: Self.path, schema: Prefs.schema, fileSystem: disk).value
      },
      check: { value, context in
        try context.require(value == Prefs() || value == new, "a mix: \(value)")
        if context.acknowledged.contains("new") {
          try context.require(value == new, "acknowledged update lost: \(value)")
        }
      })
    #expect(report.passed, "\(report)")
    #expect(report.operationError == nil)
    #expect(report.crashPoints > 5)
  }
}
