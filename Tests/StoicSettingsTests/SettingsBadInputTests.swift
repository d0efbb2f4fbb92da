import StoicSettings
import StoicStore
import StoicTesting
import Testing

/// Every kind of bad input, each with its documented outcome: the store opens, says what it
/// did, and loses nothing (a file it cannot use is renamed aside byte for byte).
@Suite struct SettingsBadInputTests {
  /// Opens a store over a current file holding `bytes` and a good previous generation, and
  /// checks the documented outcome for an unusable file; the reason reported contains
  /// `problem` (any reason when it is empty).
  func expectQuarantinedWithPreviousUsed(
    _ bytes: [UInt8], format: SettingsFormat = .appOwned, maxFileSize: Int = 1 << 20,
    problem: String, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let disk = SimulatedFileSystem()
    disk.setDurableContents(settingsPath, bytes)
    plant(
      #"{"formatVersion": 2, "name": "Previous"}"#, on: disk, at: previousPath,
      format: format)
    let events = EventLog()
    let store = try openPrefs(
      on: disk, format: format, maxFileSize: maxFileSize, events: events.sink)

    #expect(store.value.name == "Previous", sourceLocation: sourceLocation)
    #expect(store.source == .previousGeneration, sourceLocation: sourceLocation)
    guard case .quarantined(_, let movedTo, let reported)? = store.issues.first else {
      Issue.record("expected a quarantine, got \(store.issues)", sourceLocation: sourceLocation)
      return
    }
    #expect(movedTo == quarantinePath(1), sourceLocation: sourceLocation)
    #expect(
      problem.isEmpty || reported.contains(problem), "\(reported)", sourceLocation: sourceLocation)
    #expect(
      disk.durableContents(quarantinePath(1)) == bytes, sourceLocation: sourceLocation)
    #expect(events.names.contains(SettingsEvents.recovered.name), sourceLocation: sourceLocation)
    events.expectAllRegistered(sourceLocation: sourceLocation)
  }

  @Test func tornFile() throws {
    let whole = stored(#"{"formatVersion": 2, "name": "Current", "scrollSpeed": 900}"#)
    for length in [0, 1, 19, 20, 21, whole.count / 2, whole.count - 1] {
      try expectQuarantinedWithPreviousUsed(Array(whole.prefix(length)), problem: "")
    }
  }

  @Test func tornHandEditedFile() throws {
    let text = Array(#"{"formatVersion": 2, "name": "Current"}"#.utf8)
    try expectQuarantinedWithPreviousUsed(
      Array(text.prefix(text.count - 1)), format: .handEdited, problem: "not JSON")
  }

  @Test func notJSON() throws {
    try expectQuarantinedWithPreviousUsed(
      AtomicFile.envelope([0xFF, 0xFE, 0x00, 0x41, 0x7B]), problem: "not JSON")
    try expectQuarantinedWithPreviousUsed(
      AtomicFile.envelope(Array("name = Ada".utf8)), problem: "not JSON")
  }

  @Test func nestingTooDeep() throws {
    let deep = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
    try expectQuarantinedWithPreviousUsed(
      stored(#"{"formatVersion": 2, "recent": \#(deep)}"#), problem: "nested deeper than 64")
    try expectQuarantinedWithPreviousUsed(
      Array(String(repeating: "[", count: 100_000).utf8), format: .handEdited,
      problem: "nested deeper than 64")

    // Brackets inside strings and comments do not count.
    let disk = SimulatedFileSystem()
    let brackets = String(repeating: "[{", count: 100)
    plant(
      "// \(brackets)\n{ name: '\(brackets.prefix(32))', /* \(brackets) */ recent: [\"\\\"\(brackets)\"] }",
      on: disk, format: .handEdited)
    let store = try openPrefs(on: disk, format: .handEdited)
    #expect(store.source == .file)
    #expect(store.value.name == String(brackets.prefix(32)))
    #expect(store.value.recent == ["\"" + brackets])

    // An update that would nest too deep is refused, so the store never writes what it
    // would refuse to read.
    struct Tree: Codable, Sendable, Equatable {
      var children: [Tree] = []
    }
    struct Nested: Sendable, Equatable {
      var tree = Tree()
    }
    let nested = try SettingsStore.open(
      at: settingsPath,
      schema: SettingsSchema(version: 1, defaults: Nested(), fields: [.field("tree", \.tree)]),
      fileSystem: SimulatedFileSystem())
    var tree = Tree()
    for _ in 0..<40 { tree = Tree(children: [tree]) }
    #expect(throws: StoreError.self) { try nested.update { $0.tree = tree } }
    #expect(nested.value == Nested())
  }

  @Test("bytes that are not UTF-8 are quarantined before the decoder sees them")
  func notUTF8() throws {
    // FoundationEssentials' JSON5 scanner traps on this unquoted key (the process died of
    // SIGILL opening the file).
    let key: [UInt8] = [0x7B, 0xFD, 0x61, 0x61, 0x61, 0x61, 0x61, 0x7D]
    try expectQuarantinedWithPreviousUsed(key, format: .handEdited, problem: "not UTF-8")
    try expectQuarantinedWithPreviousUsed(
      AtomicFile.envelope(key), problem: "an invalid byte at offset 1")
    let prefix = Array(#"{"formatVersion": 2, "name": ""#.utf8)
    for invalid: [UInt8] in [
      [0xC3], [0xE2, 0x82], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xFF],
    ] {
      let text = prefix + invalid + Array(#""}"#.utf8)
      try expectQuarantinedWithPreviousUsed(
        text, format: .handEdited, problem: "an invalid byte at offset \(prefix.count)")
    }
  }

  @Test("numbers the decoder stops the process on are quarantined before it sees them")
  func numbersTheDecoderTrapsOn() throws {
    // Each of these killed the process (SIGILL) in FoundationEssentials' JSON5 number
    // parsing, found by the pre-scan's property test.
    for number in ["0x5E-2", "-0x5E-2", "0x5E+2", "0x0x", "-0x8000000000000001", "1e+"] {
      try expectQuarantinedWithPreviousUsed(
        Array(#"{"formatVersion": 2, "volume": \#(number)}"#.utf8), format: .handEdited,
        problem: "the number \(number) at offset")
    }
    // A number alone: the decoder reads past its end.
    try expectQuarantinedWithPreviousUsed(
      Array("9223372036854775808".utf8), format: .handEdited, problem: "wrong shape")
    // JSON5's other numbers pass, and are read (or repaired as values out of range).
    let disk = SimulatedFileSystem()
    plant(
      #"{formatVersion: 2, scrollSpeed: 0x1F, volume: .5, extra: [+4, 5., -Infinity, NaN, "#
        + #"9223372036854775808, 0, -0.0, 1E-3]}"#, on: disk, format: .handEdited)
    let store = try openPrefs(on: disk, format: .handEdited)
    #expect(store.source == .file, "\(store.issues)")
    #expect(store.value.scrollSpeed == 31)
    #expect(store.value.volume == 0.5)
  }

  @Test("a // comment ends at \\r as the JSON5 parser ends it: the nesting after it counts")
  func commentEndedByCarriageReturn() throws {
    let deep = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
    try expectQuarantinedWithPreviousUsed(
      Array("// x\r{\"recent\":\(deep)}".utf8), format: .handEdited,
      problem: "nested deeper than 64")
    // So does a string's escape: `\u` takes the next four bytes, a backslash among them, and
    // the quote after them ends the string.
    try expectQuarantinedWithPreviousUsed(
      Array(#"{"name": "\uabc\", "recent": \#(deep)}"#.utf8), format: .handEdited,
      problem: "nested deeper than 64")
  }

  @Test func wrongShape() throws {
    for json in [
      #"[1, 2]"#, #""text""#, "42", "null", #"{"formatVersion": "2"}"#,
      #"{"formatVersion": 0}"#, #"{"formatVersion": 1.5}"#, #"{"formatVersion": -3}"#,
    ] {
      try expectQuarantinedWithPreviousUsed(stored(json), problem: "wrong shape")
    }
  }

  @Test func handEditedSyntaxError() throws {
    let text = Array("{\n  \"scrollSpeed\": 900\n  \"name\": \"Ada\"\n}\n".utf8)
    try expectQuarantinedWithPreviousUsed(text, format: .handEdited, problem: "not JSON")

    // Without a previous generation: defaults, the file renamed aside, nothing written.
    let disk = SimulatedFileSystem()
    plant(String(decoding: text, as: UTF8.self), on: disk, format: .handEdited)
    let store = try openPrefs(on: disk, format: .handEdited)
    #expect(store.source == .defaults(.unusable))
    #expect(disk.allPaths() == [quarantinePath(1)])
    #expect(disk.contents(quarantinePath(1)) == text)
  }

  @Test func hugeFileIsQuarantinedWithoutBeingRead() throws {
    var huge = Array(#"{"formatVersion": 2, "name": "Big", "pad": ""#.utf8)
    huge += [UInt8](repeating: 0x61, count: 5_000)
    huge += Array(#""}"#.utf8)
    try expectQuarantinedWithPreviousUsed(
      stored(String(decoding: huge, as: UTF8.self)), maxFileSize: 4_096, problem: "over the limit")
    try expectQuarantinedWithPreviousUsed(
      huge, format: .handEdited, maxFileSize: 4_096, problem: "over the limit")

    // Unreadable files are refused before they are read: a read fault on the huge file is
    // never hit.
    let disk = SimulatedFileSystem()
    disk.setDurableContents(settingsPath, stored(String(decoding: huge, as: UTF8.self)))
    disk.inject(.ioErrorOnRead(path: settingsPath))
    let store = try openPrefs(on: disk, maxFileSize: 4_096)
    #expect(store.source == .defaults(.unusable))
  }

  @Test func outOfRangeValueIsRepairedAndTheRestKept() throws {
    let disk = SimulatedFileSystem()
    let original = #"{"formatVersion": 2, "scrollSpeed": -5, "volume": 7.5, "name": "Ada"}"#
    plant(original, on: disk)
    let store = try openPrefs(on: disk)
    #expect(store.value.scrollSpeed == 600)
    #expect(store.value.volume == 0.5)
    #expect(store.value.name == "Ada")
    #expect(store.source == .file)
    #expect(store.issues.count == 2)
    #expect(disk.contents(previousPath) == stored(original))
  }

  @Test func handEditedValuesJSONCannotHoldAreRepairedNotWrittenBack() throws {
    let disk = SimulatedFileSystem()
    let text = "{ volume: NaN, scrollSpeed: Infinity, name: 'Ada', /* ok */ }"
    plant(text, on: disk, format: .handEdited)
    let store = try openPrefs(on: disk, format: .handEdited)
    #expect(store.value.volume == 0.5)
    #expect(store.value.scrollSpeed == 600)
    #expect(store.value.name == "Ada")
    #expect(store.issues.count == 2)
    #expect(disk.allPaths() == [settingsPath])
    #expect(disk.contents(settingsPath) == Array(text.utf8))
  }

  @Test func invalidSchemaIsRefusedAtOpen() {
    let schemas: [SettingsSchema<Prefs>] = [
      SettingsSchema(version: 0, defaults: Prefs(), fields: Prefs.fields),
      SettingsSchema(
        version: 1, defaults: Prefs(), fields: Prefs.fields + [.field("name", \.name)]),
      SettingsSchema(
        version: 1, defaults: Prefs(scrollSpeed: 0), fields: Prefs.fields),
      SettingsSchema(
        version: 1, defaults: Prefs(), fields: [.field("formatVersion", \.scrollSpeed)]),
      SettingsSchema(
        version: 2, defaults: Prefs(), fields: Prefs.fields,
        migrations: [.renaming("a", to: "b", from: 2)]),
    ]
    for schema in schemas {
      #expect(throws: StoreError.self) {
        try openPrefs(on: SimulatedFileSystem(), schema: schema)
      }
    }
  }
}
