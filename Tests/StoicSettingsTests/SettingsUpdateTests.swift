import StoicSettings
import StoicStore
import StoicTesting
import Testing

@Suite struct SettingsUpdateTests {
  @Test func updateIsDurableSparseAndThenPublished() throws {
    let disk = SimulatedFileSystem()
    let events = EventLog()
    let store = try openPrefs(on: disk, events: events.sink)
    try store.update {
      $0.scrollSpeed = 900
      $0.name = "Guest"  // equal to the default: not written
    }
    #expect(store.value.scrollSpeed == 900)
    #expect(events.names.last == SettingsEvents.saved.name)
    let crashed = disk.crashedDurableOnly()
    #expect(
      currentDocument(on: crashed) == ["formatVersion": .integer(2), "scrollSpeed": .integer(900)])

    // Back to the default: only the version remains.
    try store.update { $0.scrollSpeed = 600 }
    #expect(currentDocument(on: disk) == ["formatVersion": .integer(2)])
    events.expectAllRegistered()
  }

  @Test func unchangedValueWritesNothing() throws {
    let disk = SimulatedFileSystem()
    let store = try openPrefs(on: disk)
    let operations = disk.operationCount
    try store.update { $0.name = "Guest" }
    #expect(disk.operationCount == operations)
    #expect(disk.allPaths().isEmpty)
  }

  @Test func invalidUpdateIsRefusedWithEveryIssueAndNothingChanges() throws {
    let disk = SimulatedFileSystem()
    let events = EventLog()
    let store = try openPrefs(on: disk, events: events.sink)
    try store.update { $0.scrollSpeed = 900 }
    let file = disk.contents(settingsPath)
    let operations = disk.operationCount

    do throws(StoreError) {
      try store.update {
        $0.scrollSpeed = 0
        $0.name = ""
        $0.volume = .nan
        $0.recent = ["1", "2", "3", "4", "5", "6"]
        $0.theme = .dark
      }
      Issue.record("an invalid update must throw")
    } catch {
      #expect(error.code == .invalidArgument)
      let keys = (error.settingsIssues ?? []).compactMap { issue -> String? in
        guard case .invalid(let key, _) = issue else { return nil }
        return key
      }
      #expect(keys == ["scrollSpeed", "name", "recent", "volume"])
    }
    #expect(store.value.scrollSpeed == 900)
    #expect(store.value.theme == .system)
    #expect(disk.contents(settingsPath) == file)
    #expect(disk.operationCount == operations)
    #expect(events.names.last == SettingsEvents.rejected.name)
    events.expectAllRegistered()
  }

  @Test func documentOverTheSizeLimitIsRefused() throws {
    let disk = SimulatedFileSystem()
    let store = try openPrefs(on: disk, maxFileSize: 64)
    do throws(StoreError) {
      try store.update { $0.recent = Array(repeating: String(repeating: "r", count: 20), count: 5) }
      Issue.record("an update over the size limit must throw")
    } catch {
      guard case .tooLarge(_, let limit)? = error.settingsIssues?.first else {
        Issue.record("expected tooLarge, got \(error)")
        return
      }
      #expect(limit == 64)
    }
    #expect(store.value.recent.isEmpty)
    #expect(disk.allPaths().isEmpty)
  }

  @Test(
    arguments: [
      SimulatedFault.noSpaceOnWrite(nth: 1, partialBytes: 7), .ioErrorOnSync(nth: 1),
      .freeSpace(10),
    ])
  func failedWriteLeavesValueAndFileAsTheyWere(fault: SimulatedFault) throws {
    let disk = SimulatedFileSystem()
    let events = EventLog()
    let store = try openPrefs(on: disk, events: events.sink)
    try store.update { $0.scrollSpeed = 900 }
    try store.update { $0.scrollSpeed = 950 }
    let current = disk.contents(settingsPath)
    let previous = disk.contents(previousPath)

    disk.inject(fault)
    #expect(throws: StoreError.self) { try store.update { $0.scrollSpeed = 1000 } }
    #expect(store.value.scrollSpeed == 950)
    #expect(disk.contents(settingsPath) == current)
    #expect(disk.contents(previousPath) == previous)
    #expect(events.names.last == SettingsEvents.saveFailed.name)

    // After the fault clears, the same update goes through.
    disk.clearFaults()
    try store.update { $0.scrollSpeed = 1000 }
    #expect(try openPrefs(on: disk.crashedDurableOnly()).value.scrollSpeed == 1000)
    events.expectAllRegistered()
  }

  @Test func handEditedUpdateRewritesPlainJSONWithoutComments() throws {
    let disk = SimulatedFileSystem()
    let text = """
      // Scroll speed in points per second.
      {
        formatVersion: 2,
        scrollSpeed: 1000, /* fast */
        name: 'Ada',
      }
      """
    plant(text, on: disk, format: .handEdited)
    let store = try openPrefs(on: disk, format: .handEdited)
    #expect(store.value.scrollSpeed == 1000)
    #expect(store.value.name == "Ada")
    #expect(store.issues.isEmpty)
    #expect(disk.contents(settingsPath) == Array(text.utf8))

    try store.update { $0.theme = .dark }
    let written = try #require(disk.contents(settingsPath))
    #expect(!String(decoding: written, as: UTF8.self).contains("//"))
    #expect(
      document(written, format: .handEdited) == [
        "formatVersion": .integer(2), "scrollSpeed": .integer(1000), "name": .string("Ada"),
        "theme": .string("dark"),
      ])
    // The commented original is the previous generation.
    #expect(disk.contents(previousPath) == Array(text.utf8))
  }
}

@Suite struct SettingsDirectoryTests {
  @Test func firstWriteCreatesAMissingDirectory() throws {
    let disk = SimulatedFileSystem()
    let path = "support/app/prefs.json"
    let store = try SettingsStore.open(at: path, schema: Prefs.schema, fileSystem: disk)
    #expect(store.source == .defaults(.noFile))
    try store.update { $0.name = "Ada" }
    let reopened = try SettingsStore.open(
      at: path, schema: Prefs.schema, fileSystem: disk.crashedDurableOnly())
    #expect(reopened.value.name == "Ada")
  }
}
