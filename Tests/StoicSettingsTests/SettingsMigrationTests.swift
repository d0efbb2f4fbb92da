import StoicSettings
import StoicStore
import StoicTesting
import Testing

@Suite struct SettingsMigrationTests {
  static let versionOne = #"{"formatVersion": 1, "speed": 1200, "name": "Ada"}"#

  @Test func appOwnedStoreWritesTheMigratedFormBackAndKeepsTheOldAsPrevious() throws {
    let disk = SimulatedFileSystem()
    plant(Self.versionOne, on: disk)
    let events = EventLog()
    let store = try openPrefs(on: disk, events: events.sink)

    #expect(store.value.scrollSpeed == 1200)
    #expect(store.value.name == "Ada")
    #expect(store.source == .file)
    #expect(store.issues == [.migrated(from: 1, to: 2)])
    let migrated = events.first(SettingsEvents.migrated.name)
    #expect(migrated?["from"] == "1")
    #expect(migrated?["to"] == "2")

    // Durable at once: the migrated document is current, the pre-migration file is .previous.
    let crashed = disk.crashedDurableOnly()
    #expect(
      currentDocument(on: crashed) == [
        "formatVersion": .integer(2), "scrollSpeed": .integer(1200), "name": .string("Ada"),
      ])
    #expect(crashed.durableContents(previousPath) == stored(Self.versionOne))

    // The next open reads version 2 with nothing to migrate.
    let reopened = try openPrefs(on: crashed)
    #expect(reopened.value == store.value)
    #expect(reopened.issues.isEmpty)
    events.expectAllRegistered()
  }

  @Test func handEditedStoreMigratesInMemoryOnly() throws {
    let disk = SimulatedFileSystem()
    plant(Self.versionOne, on: disk, format: .handEdited)
    let store = try openPrefs(on: disk, format: .handEdited)
    #expect(store.value.scrollSpeed == 1200)
    #expect(store.issues == [.migrated(from: 1, to: 2)])
    #expect(disk.allPaths() == [settingsPath])
    #expect(disk.contents(settingsPath) == Array(Self.versionOne.utf8))
  }

  @Test func migrationsRunInOrderAndAMissingStepIsANoOp() throws {
    let schema = SettingsSchema(
      version: 4, defaults: Prefs(), fields: Prefs.fields,
      migrations: [
        SettingsMigration(from: 3) { document in
          if case .integer(let speed)? = document["scrollSpeed"] {
            document["scrollSpeed"] = .integer(speed * 2)
          }
        },
        .renaming("speed", to: "scrollSpeed", from: 1),
      ])
    let disk = SimulatedFileSystem()
    plant(#"{"formatVersion": 1, "speed": 900}"#, on: disk)
    let store = try openPrefs(on: disk, schema: schema)
    #expect(store.value.scrollSpeed == 1800)
    #expect(store.issues == [.migrated(from: 1, to: 4)])
  }

  @Test func aDocumentWithoutAVersionIsReadAsTheCurrentOneByDefault() throws {
    let disk = SimulatedFileSystem()
    plant(#"{"scrollSpeed": 321}"#, on: disk, format: .handEdited)
    #expect(try openPrefs(on: disk, format: .handEdited).value.scrollSpeed == 321)

    let legacy = SettingsSchema(
      version: 2, defaults: Prefs(), fields: Prefs.fields,
      migrations: [.renaming("speed", to: "scrollSpeed", from: 1)], versionWhenMissing: 1)
    let old = SimulatedFileSystem()
    plant(#"{"speed": 321}"#, on: old)
    let store = try openPrefs(on: old, schema: legacy)
    #expect(store.value.scrollSpeed == 321)
    #expect(store.issues == [.migrated(from: 1, to: 2)])
  }

  @Test func failedWriteBackIsReportedAndTheStoreStillOpens() throws {
    let disk = SimulatedFileSystem()
    plant(Self.versionOne, on: disk)
    disk.inject(.noSpaceOnWrite(nth: 1))
    let events = EventLog()
    let store = try openPrefs(on: disk, events: events.sink)
    #expect(store.value.scrollSpeed == 1200)
    #expect(store.issues.count == 2)
    guard case .writeBackFailed? = store.issues.last else {
      Issue.record("expected writeBackFailed, got \(store.issues)")
      return
    }
    #expect(events.names.contains(SettingsEvents.saveFailed.name))
    #expect(disk.contents(settingsPath) == stored(Self.versionOne))
    events.expectAllRegistered()
  }
}
