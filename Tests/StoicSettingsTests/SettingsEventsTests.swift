import StoicSettings
import StoicStore
import StoicTesting
import Testing

@Suite struct SettingsEventsTests {
  /// One pass through every outcome: each `settings.*` event of the catalog is emitted, at its
  /// catalog level, with exactly its catalog fields.
  @Test func everySettingsEventIsEmittedWithItsCatalogFields() throws {
    let events = EventLog()

    // Corrupt current, version 1 previous with an out-of-range field: recovered, migrated,
    // repaired, written back, loaded.
    let disk = SimulatedFileSystem()
    disk.setDurableContents(settingsPath, Array("torn".utf8))
    plant(#"{"formatVersion": 1, "speed": 99999, "name": "Ada"}"#, on: disk, at: previousPath)
    let store = try openPrefs(on: disk, events: events.sink)
    #expect(store.source == .previousGeneration)
    #expect(store.value.name == "Ada")

    try store.update { $0.theme = .dark }  // saved
    #expect(throws: StoreError.self) { try store.update { $0.scrollSpeed = -1 } }  // rejected
    disk.inject(.noSpaceOnWrite(nth: 1))
    #expect(throws: StoreError.self) { try store.update { $0.theme = .light } }  // save_failed

    let unusable = SimulatedFileSystem()
    unusable.setDurableContents(settingsPath, Array("torn".utf8))
    _ = try openPrefs(on: unusable, events: events.sink)  // reset

    let newer = SimulatedFileSystem()
    plant(#"{"formatVersion": 9}"#, on: newer)
    _ = try openPrefs(on: newer, events: events.sink)  // newer_format

    let catalog = SettingsEvents.catalog.entries
    let emitted = events.all.filter { $0.name.hasPrefix("settings") }
    #expect(Set(emitted.map(\.name)) == Set(catalog.map(\.name)))
    for event in emitted {
      let entry = try #require(SettingsEvents.catalog.entry(named: event.name))
      #expect(event.fields.map(\.0) == entry.fields, "\(event)")
      #expect(event.level == entry.level, "\(event)")
    }
    events.expectAllRegistered()
  }
}
