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

  /// The bits of `path`, or nil when nothing is there.
  func mode(_ path: String) -> FilePermissions? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    return FilePermissions(rawValue: UInt16(truncatingIfNeeded: info.st_mode))
  }

  @Test func filesArePrivateByDefaultAndSharedWhenAsked() throws {
    var template = Array("/tmp/stoic-settings-XXXXXX".utf8CString)
    let directory = try #require(mkdtemp(&template).map { String(cString: $0) })
    defer {
      for path in ["own/prefs.json", "own/prefs.json.previous", "shared/prefs.json"] {
        unlink(directory + "/" + path)
      }
      for path in ["own", "shared", ""] { rmdir(directory + "/" + path) }
    }

    // The directories are missing: the first update creates them.
    let own = try SettingsStore.open(at: directory + "/own/prefs.json", schema: Prefs.schema)
    try own.update { $0.scrollSpeed = 900 }
    try own.update { $0.scrollSpeed = 901 }
    #expect(mode(directory + "/own") == .privateDirectory)
    #expect(mode(directory + "/own/prefs.json") == .privateFile)
    #expect(mode(directory + "/own/prefs.json.previous") == .privateFile)

    let shared = try SettingsStore.open(
      at: directory + "/shared/prefs.json", schema: Prefs.schema, format: .handEdited,
      permissions: .readableByAll)
    try shared.update { $0.theme = .dark }
    #expect(mode(directory + "/shared") == FilePermissions(rawValue: 0o755))
    #expect(mode(directory + "/shared/prefs.json") == .readableByAll)
  }
}
