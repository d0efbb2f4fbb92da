import StoicSettings
import StoicStore
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The store on the real disk (the default file system), in a fresh temporary directory.
@Suite struct SettingsPosixTests {
  @Test func updateAndReopenOnTheRealDisk() throws {
    var template = Array("/tmp/stoic-settings-XXXXXX".utf8CString)
    let directory = try #require(mkdtemp(&template).map { String(cString: $0) })
    let path = directory + "/prefs.json"
    defer {
      for suffix in ["", ".previous", ".tmp"] { unlink(path + suffix) }
      rmdir(directory)
    }

    let store = try SettingsStore.open(at: path, schema: Prefs.schema)
    #expect(store.source == .defaults(.noFile))
    try store.update { $0.scrollSpeed = 900 }
    try store.update { $0.theme = .dark }

    let reopened = try SettingsStore.open(at: path, schema: Prefs.schema)
    #expect(reopened.source == .file)
    #expect(reopened.value == Prefs(scrollSpeed: 900, theme: .dark))
    let previous = try PosixFileSystem().readWholeFile(path + ".previous")
    #expect(document(previous) == ["formatVersion": .integer(2), "scrollSpeed": .integer(900)])
  }
}
