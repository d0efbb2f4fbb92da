import StoicSettings
import StoicStore
import StoicTesting
import Testing

/// What a recovered store found, for the crash checks.
struct Recovered: Sendable {
  var value: Prefs
  var source: SettingsSource
  var issues: [SettingsIssue]
}

/// A crash at every point of an update, and of a migration's write-back, leaves the old value
/// or the new, never a mix, and never an unreadable file.
@Suite struct SettingsCrashTests {
  static let old = Prefs(scrollSpeed: 700, theme: .light, name: "Old")
  static let new = Prefs(scrollSpeed: 900, theme: .dark, name: "New", recent: ["a"])

  static func recover(_ disk: SimulatedFileSystem, format: SettingsFormat) throws -> Recovered {
    let store = try openPrefs(on: disk, format: format)
    return Recovered(value: store.value, source: store.source, issues: store.issues)
  }

  static let older = Prefs(scrollSpeed: 100, name: "Older")

  /// With one earlier generation on disk (no `.previous` yet) and with two (a `.previous` to
  /// replace): the value found is the old or the new, never the older one in `.previous`.
  @Test(arguments: [SettingsFormat.appOwned, .handEdited], [1, 2])
  func crashAtEveryPointOfAnUpdate(format: SettingsFormat, generations: Int) {
    let report = CrashExplorer().explore(
      setup: { disk in
        let store = try openPrefs(on: disk, format: format)
        if generations == 2 { try store.update { $0 = Self.older } }
        try store.update { $0 = Self.old }
      },
      operation: { disk, recorder in
        let store = try openPrefs(on: disk, format: format)
        try store.update { $0 = Self.new }
        recorder.acknowledge("new")
      },
      recover: { disk in try Self.recover(disk, format: format) },
      check: { found, context in
        try context.require(
          found.value == Self.old || found.value == Self.new, "a mix: \(found.value)")
        if context.acknowledged.contains("new") {
          try context.require(found.value == Self.new, "acknowledged update lost: \(found.value)")
        }
        try context.require(
          found.source == .file || found.source == .previousGeneration,
          "source \(found.source)")
        try context.require(found.issues.isEmpty, "issues \(found.issues)")
      })
    #expect(report.passed, "\(report)")
    #expect(report.operationError == nil)
    #expect(report.crashPoints > 5)
  }

  @Test func crashAtEveryPointOfAMigrationWriteBack() {
    let migrated = Prefs(scrollSpeed: 1200, name: "Ada")
    let report = CrashExplorer().explore(
      setup: { disk in plant(SettingsMigrationTests.versionOne, on: disk) },
      operation: { disk, recorder in
        let store = try openPrefs(on: disk)
        try #require(store.value == migrated)
        recorder.acknowledge("migrated")
      },
      recover: { disk in
        let store = try openPrefs(on: disk)
        return (
          Recovered(value: store.value, source: store.source, issues: store.issues),
          currentDocument(on: disk)?["formatVersion"]
        )
      },
      check: { found, context in
        let (recovered, version) = found
        try context.require(recovered.value == migrated, "value \(recovered.value)")
        try context.require(
          recovered.source == .file || recovered.source == .previousGeneration,
          "source \(recovered.source)")
        try context.require(
          version == .integer(2), "file left at version \(String(describing: version))")
      })
    #expect(report.passed, "\(report)")
    #expect(report.operationError == nil)
    #expect(report.recoveryImagesChecked > 0)
  }

  @Test func crashAtEveryPointOfARepairWriteBack() {
    let report = CrashExplorer().explore(
      setup: { disk in plant(#"{"formatVersion": 2, "scrollSpeed": 0, "name": "Ada"}"#, on: disk) },
      operation: { disk, _ in _ = try openPrefs(on: disk) },
      recover: { disk in try Self.recover(disk, format: .appOwned) },
      check: { found, context in
        try context.require(found.value == Prefs(name: "Ada"), "value \(found.value)")
        try context.require(
          found.source == .file || found.source == .previousGeneration, "source \(found.source)")
      })
    #expect(report.passed, "\(report)")
  }
}
