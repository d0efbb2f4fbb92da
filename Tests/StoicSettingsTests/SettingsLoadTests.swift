import StoicSettings
import StoicStore
import StoicTesting
import Testing

@Suite struct SettingsLoadTests {
  @Test func firstLaunchOpensWithDefaultsAndWritesNothing() throws {
    let disk = SimulatedFileSystem()
    let events = EventLog()
    let store = try openPrefs(on: disk, events: events.sink)
    #expect(store.value == Prefs())
    #expect(store.source == .defaults(.noFile))
    #expect(store.issues.isEmpty)
    #expect(disk.allPaths().isEmpty)
    #expect(events.names == [SettingsEvents.loaded.name])
    #expect(events.first(SettingsEvents.loaded.name)?["source"] == "defaults(noFile)")
    events.expectAllRegistered()
  }

  @Test(arguments: [SettingsFormat.appOwned, .handEdited])
  func storedValuesRoundTrip(format: SettingsFormat) throws {
    let disk = SimulatedFileSystem()
    let first = try openPrefs(on: disk, format: format)
    try first.update {
      $0.scrollSpeed = 900
      $0.theme = .dark
      $0.recent = ["a", "b"]
      $0.volume = 0.25
    }
    let again = try openPrefs(on: disk.crashedDurableOnly(), format: format)
    #expect(again.value == first.value)
    #expect(again.source == .file)
    #expect(again.issues.isEmpty)
  }

  @Test func oneInvalidFieldFallsBackAndTheOthersAreKept() throws {
    let disk = SimulatedFileSystem()
    let original =
      #"{"formatVersion": 2, "scrollSpeed": 5000, "theme": "neon", "name": "Ada", "volume": "loud", "recent": ["x"]}"#
    plant(original, on: disk)
    let events = EventLog()
    let store = try openPrefs(on: disk, events: events.sink)

    #expect(store.value.name == "Ada")
    #expect(store.value.recent == ["x"])
    #expect(store.value.scrollSpeed == 600)
    #expect(store.value.theme == .system)
    #expect(store.value.volume == 0.5)
    #expect(store.source == .file)
    let repaired = store.issues.compactMap { issue -> String? in
      guard case .repaired(let key, _) = issue else { return nil }
      return key
    }
    #expect(repaired == ["scrollSpeed", "theme", "volume"])
    #expect(events.first(SettingsEvents.repaired.name)?["fields"] == "scrollSpeed,theme,volume")

    // App-owned: the repaired form is written back at once; the original stays as .previous.
    #expect(
      currentDocument(on: disk) == [
        "formatVersion": .integer(2), "name": .string("Ada"), "recent": .array([.string("x")]),
      ])
    #expect(disk.durableContents(previousPath) == stored(original))
    #expect(events.names.contains(SettingsEvents.saveFailed.name) == false)
    events.expectAllRegistered()
  }

  @Test func unknownKeysAreDroppedAndReportedUnlessPreserved() throws {
    let disk = SimulatedFileSystem()
    plant(#"{"formatVersion": 2, "name": "Ada", "colour": "red"}"#, on: disk)
    let store = try openPrefs(on: disk)
    #expect(store.issues == [.unknownKey("colour")])
    try store.update { $0.scrollSpeed = 700 }
    #expect(currentDocument(on: disk)?["colour"] == nil)

    let keeping = SimulatedFileSystem()
    plant(#"{"formatVersion": 2, "name": "Ada", "colour": "red"}"#, on: keeping)
    let preserving = try openPrefs(on: keeping, schema: Prefs.preservingSchema)
    #expect(preserving.issues.isEmpty)
    try preserving.update { $0.scrollSpeed = 700 }
    #expect(currentDocument(on: keeping)?["colour"] == .string("red"))
    #expect(currentDocument(on: keeping)?["scrollSpeed"] == .integer(700))
  }

  @Test func unusableCurrentFileIsQuarantinedAndThePreviousGenerationUsed() throws {
    let disk = SimulatedFileSystem()
    let store = try openPrefs(on: disk)
    try store.update { $0.scrollSpeed = 700 }
    try store.update { $0.scrollSpeed = 800 }
    let current = try #require(disk.contents(settingsPath))
    disk.damage(settingsPath, at: current.count - 3, with: [0x00, 0x01, 0x02])
    let damaged = disk.durableContents(settingsPath)

    let events = EventLog()
    let reopened = try openPrefs(on: disk, events: events.sink)
    #expect(reopened.value.scrollSpeed == 700)
    #expect(reopened.source == .previousGeneration)
    guard case .quarantined(let path, let movedTo, _)? = reopened.issues.first else {
      Issue.record("expected a quarantine, got \(reopened.issues)")
      return
    }
    #expect(path == settingsPath)
    #expect(movedTo == quarantinePath(1))
    #expect(disk.durableContents(quarantinePath(1)) == damaged)
    #expect(events.names.contains(SettingsEvents.recovered.name))
    #expect(events.names.contains(StoreEvents.corruptQuarantined.name))
    events.expectAllRegistered()
  }

  @Test func bothGenerationsUnusableGiveDefaultsAndKeepBothFiles() throws {
    let disk = SimulatedFileSystem()
    plant(#"["not", "an", "object"]"#, on: disk)
    plant(#"{"formatVersion": "two"}"#, on: disk, at: previousPath)
    let events = EventLog()
    let store = try openPrefs(on: disk, events: events.sink)
    #expect(store.value == Prefs())
    #expect(store.source == .defaults(.unusable))
    let problems = store.issues.compactMap { issue -> String? in
      guard case .quarantined(_, _, let problem) = issue else { return nil }
      return problem
    }
    #expect(problems.count == 2)
    #expect(problems.first?.contains("wrong shape") == true)
    #expect(problems.last?.contains("formatVersion") == true)
    #expect(disk.durableContents(quarantinePath(1)) == stored(#"["not", "an", "object"]"#))
    #expect(disk.durableContents(quarantinePath(2)) == stored(#"{"formatVersion": "two"}"#))
    #expect(events.names.contains(SettingsEvents.reset.name))

    // The next update writes a fresh file; the quarantined ones stay.
    try store.update { $0.name = "Ada" }
    let reopened = try openPrefs(on: disk.crashedDurableOnly())
    #expect(reopened.value.name == "Ada")
    #expect(disk.allPaths().contains(quarantinePath(2)))
    events.expectAllRegistered()
  }

  @Test func readErrorIsThrownNotTreatedAsCorruption() throws {
    let disk = SimulatedFileSystem()
    plant(#"{"formatVersion": 2, "name": "Ada"}"#, on: disk)
    disk.inject(.ioErrorOnRead(path: settingsPath))
    #expect(throws: StoreError.self) { try openPrefs(on: disk) }
    #expect(disk.allPaths() == [settingsPath])
    disk.clearFaults()
    #expect(try openPrefs(on: disk).value.name == "Ada")
  }
}
