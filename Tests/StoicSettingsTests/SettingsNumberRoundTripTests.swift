import StoicSettings
import StoicStore
import StoicTesting
import Testing

/// Numbers keep their meaning when the store writes a document back (found by fuzzing the
/// hand-edited decoder): a number written with a fraction whose value is whole and fits in
/// 64 bits is an ``SettingsJSON/integer(_:)``, as the type documents, so writing it and reading
/// it again gives the same value and the same kind.
@Suite struct SettingsNumberRoundTripTests {
  /// Written with a fraction; as a `Double` it is the whole number 555555555555555584.
  static let text = "555555555555555555.555555555"

  @Test func aWholeValueWrittenWithAFractionIsAnInteger() throws {
    let parsed = try JSONText.parse(Array(Self.text.utf8))
    #expect(parsed == .integer(555_555_555_555_555_584))
    #expect(try JSONText.parse(Array("2.0".utf8)) == .integer(2))
    #expect(try JSONText.parse(Array("-1e3".utf8)) == .integer(-1000))
    #expect(try JSONText.parse(Array("0.5".utf8)) == .number(0.5))
    #expect(try JSONText.parse(Array("1e19".utf8)) == .number(1e19))
  }

  @Test(arguments: ["0.5", "1e-7", "2.0", "-0.0", "1e19", "555555555555555555.555555555"])
  func decodingWhatWasEncodedGivesTheSameValue(text: String) throws {
    let parsed = try JSONText.parse(Array(text.utf8))
    let again = try JSONText.parse(Array(parsed.description.utf8))
    #expect(again == parsed, "\(text) read as \(parsed), written and read again as \(again)")
  }

  @Test func aPreservedUnknownKeyIsWrittenBackWithTheSameValue() throws {
    let disk = SimulatedFileSystem()
    let json = #"{"formatVersion": 2, "extra": [1, 555555555555555555.555555555]}"#
    disk.setDurableContents(settingsPath, stored(json, format: .handEdited))
    let original = try #require(currentDocument(on: disk, format: .handEdited)?["extra"])
    let store = try openPrefs(on: disk, schema: Prefs.preservingSchema, format: .handEdited)
    try store.update { $0.scrollSpeed = 700 }
    #expect(currentDocument(on: disk, format: .handEdited)?["extra"] == original)
  }
}
