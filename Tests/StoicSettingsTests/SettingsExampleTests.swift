import StoicSettings
import StoicStore
import StoicTesting
import Testing

/// The usage example from `SettingsStore`'s documentation, compiled and run on a simulated
/// disk.
@Suite struct SettingsExampleTests {
  struct Prefs: Sendable, Equatable {
    var scrollSpeed = 600
    var theme = "system"

    static let schema = SettingsSchema(
      version: 2,
      defaults: Prefs(),
      fields: [
        .field("scrollSpeed", \.scrollSpeed, .range(1...2000)),
        .field("theme", \.theme, .oneOf(["light", "dark", "system"])),
      ],
      migrations: [.renaming("speed", to: "scrollSpeed", from: 1)]  // version 1 said "speed"
    )
  }

  @Test func documentationExample() async throws {
    let disk = SimulatedFileSystem()
    plant(#"{"formatVersion": 1, "speed": 450, "theme": "dark"}"#, on: disk)
    let settings = try SettingsStore.open(
      at: settingsPath, schema: Prefs.schema, fileSystem: disk)
    #expect(settings.value == Prefs(scrollSpeed: 450, theme: "dark"))
    #expect(settings.source == .file)
    #expect(settings.issues == [.migrated(from: 1, to: 2)])

    try settings.update { $0.scrollSpeed = 900 }
    #expect(settings.value.scrollSpeed == 900)

    do throws(StoreError) {
      try settings.update { $0.scrollSpeed = 0 }
      Issue.record("0 is out of range")
    } catch {
      #expect(
        error.settingsIssues == [
          .invalid(key: "scrollSpeed", problem: "0 must be within 1...2000")
        ])
    }

    for await prefs in settings.changes() {
      #expect(prefs == Prefs(scrollSpeed: 900, theme: "dark"))
      break
    }
  }
}
