import StoicSettings
import StoicStore
import StoicTesting
import Testing

@Suite struct SettingsNewerFormatTests {
  static let versionThree =
    #"{"formatVersion": 3, "scrollSpeed": 1500, "name": "Ada", "accent": "teal"}"#

  @Test(arguments: [SettingsFormat.appOwned, .handEdited])
  func newerDocumentSurvivesAnOlderStoresOpenAndUpdate(format: SettingsFormat) throws {
    let disk = SimulatedFileSystem()
    plant(Self.versionThree, on: disk, format: format)
    plant(
      #"{"formatVersion": 2, "name": "Old"}"#, on: disk, at: previousPath,
      format: format)
    let before = disk.allPaths().map { ($0, disk.contents($0)) }
    let events = EventLog()

    let store = try openPrefs(on: disk, format: format, events: events.sink)
    #expect(store.source == .newerFormat(version: 3))
    #expect(store.isReadOnly)
    #expect(store.value == Prefs())
    #expect(events.first(SettingsEvents.newerFormat.name)?["version"] == "3")

    do throws(StoreError) {
      try store.update { $0.scrollSpeed = 10 }
      Issue.record("update of a newer format must throw")
    } catch {
      #expect(error.code == .unsupported)
      #expect(error.settingsIssues == [.readOnly(version: 3)])
    }
    #expect(store.value == Prefs())
    #expect(events.names.contains(SettingsEvents.rejected.name))

    // Not one byte or name changed: no quarantine, no fallback, no write.
    let after = disk.allPaths().map { ($0, disk.contents($0)) }
    #expect(after.map(\.0) == before.map(\.0))
    #expect(after.map(\.1) == before.map(\.1))
    events.expectAllRegistered()
  }

  @Test func schemaPreservingUnknownKeysReadsWhatItKnowsButStaysReadOnly() throws {
    let disk = SimulatedFileSystem()
    plant(Self.versionThree, on: disk)
    let store = try openPrefs(on: disk, schema: Prefs.preservingSchema)
    #expect(store.source == .newerFormat(version: 3))
    #expect(store.value.scrollSpeed == 1500)
    #expect(store.value.name == "Ada")
    #expect(throws: StoreError.self) { try store.update { $0.name = "Bob" } }
    #expect(disk.contents(settingsPath) == stored(Self.versionThree))
  }

  @Test func newerPreviousGenerationIsUsedReadOnlyWhenTheCurrentIsCorrupt() throws {
    let disk = SimulatedFileSystem()
    disk.setDurableContents(settingsPath, Array("garbage".utf8))
    plant(Self.versionThree, on: disk, at: previousPath)
    let store = try openPrefs(on: disk)
    #expect(store.source == .newerFormat(version: 3))
    #expect(disk.contents(previousPath) == stored(Self.versionThree))
    #expect(throws: StoreError.self) { try store.update { $0.name = "Bob" } }
    #expect(disk.contents(previousPath) == stored(Self.versionThree))
  }

  @Test func olderBuildAfterANewerOneCannotDestroyItsFile() throws {
    // The newer build (schema version 2) writes; the older build (version 1) opens it.
    let disk = SimulatedFileSystem()
    let newer = try openPrefs(on: disk)
    try newer.update { $0.scrollSpeed = 1700 }
    let written = disk.contents(settingsPath)

    let older = try SettingsStore.open(at: settingsPath, schema: Prefs.schemaV1, fileSystem: disk)
    #expect(older.source == .newerFormat(version: 2))
    #expect(throws: StoreError.self) { try older.update { $0.name = "Old" } }
    #expect(disk.contents(settingsPath) == written)
    #expect(try openPrefs(on: disk).value.scrollSpeed == 1700)
  }
}
