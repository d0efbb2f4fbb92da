import StoicTesting

@testable import StoicSettings
@testable import StoicStore

/// The settings decoder, for app-owned files (strict JSON inside the checksum envelope) and
/// hand-edited ones (JSON5, comments allowed).
///
/// For any bytes: a document that parses re-encodes to JSON that parses to the same document;
/// the settings decoded from it, encoded as the store writes them, decode to the same settings
/// with nothing to repair; and the store itself, opened over the bytes on a simulated disk,
/// opens (content never makes it fail), takes an update and reopens with the value it wrote.
enum SettingsTarget {
  static let appOwned = target(.appOwned, name: "settings-app-owned")
  static let handEdited = target(.handEdited, name: "settings-hand-edited")

  static let path = "/fuzz/prefs.json"

  static func target(_ format: SettingsFormat, name: String) -> FuzzTarget {
    FuzzTarget(
      name: name,
      summary: "settings decoder (\(format)): document and value round trips, store reopens",
      maxLength: 4096,
      run: { bytes in
        checkDocument(bytes, format: format)
        checkStore(bytes, format: format)
      },
      seeds: { seeds(format) })
  }

  static func checkDocument(_ bytes: [UInt8], format: SettingsFormat) {
    let schema = FuzzSettings.schema
    guard case .success(let document) = schema.parse(bytes, format: format) else { return }
    var entries = document.entries
    entries[schema.versionKey] = .integer(Int64(document.version))
    if !hasNonFinite(.object(entries)),
      let encoded = try? SettingsCoding.encode(SettingsJSON.object(entries))
    {
      guard case .success(let again) = schema.parse(encoded, format: .appOwned) else {
        FuzzCheck.fail("a parsed document re-encodes to JSON that does not parse")
      }
      FuzzCheck.require(
        again == document, "a document round trip changed it: \(document) became \(again)")
    }
    let decoded = schema.decode(schema.migrate(document))
    guard
      case .success(let written) = schema.encodeDocument(
        decoded.value, preserving: decoded.preserved)
    else {
      FuzzCheck.fail("decoded settings cannot be encoded")
    }
    guard case .success(let reparsed) = schema.parse(written, format: .appOwned) else {
      FuzzCheck.fail("the document the store writes does not parse")
    }
    let redecoded = schema.decode(schema.migrate(reparsed))
    FuzzCheck.require(redecoded.value == decoded.value, "written settings decode to another value")
    FuzzCheck.require(
      redecoded.repairs.isEmpty, "written settings need repairs: \(redecoded.repairs)")
    FuzzCheck.require(
      redecoded.preserved == decoded.preserved, "written settings lost unknown keys")
  }

  static func checkStore(_ bytes: [UInt8], format: SettingsFormat) {
    let disk = SimulatedFileSystem()
    // An app-owned file is usually given a valid envelope, so that its JSON is what is fuzzed.
    let file =
      format == .appOwned && bytes.first.map({ $0 & 1 == 0 }) ?? false
      ? AtomicFile.envelope(Array(bytes.dropFirst())) : bytes
    disk.setDurableContents(path, file)
    let store: SettingsStore<FuzzSettings>
    do throws(StoreError) {
      store = try SettingsStore.open(
        at: path, schema: FuzzSettings.schema, format: format, fileSystem: disk)
    } catch {
      FuzzCheck.fail("a settings file made open fail: \(error)")
    }
    guard !store.isReadOnly else { return }
    let speed = store.value.speed == 7 ? 8 : 7
    do throws(StoreError) {
      try store.update { $0.speed = speed }
    } catch {
      FuzzCheck.fail("an update after opening failed: \(error)")
    }
    let expected = store.value
    do throws(StoreError) {
      let reopened = try SettingsStore.open(
        at: path, schema: FuzzSettings.schema, format: format, fileSystem: disk)
      FuzzCheck.require(reopened.source == .file, "the reopened store read \(reopened.source)")
      FuzzCheck.require(reopened.value == expected, "the reopened store holds another value")
    } catch {
      FuzzCheck.fail("reopening after an update failed: \(error)")
    }
  }

  static func hasNonFinite(_ json: SettingsJSON) -> Bool {
    switch json {
    case .number(let number): !number.isFinite
    case .array(let values): values.contains(where: hasNonFinite)
    case .object(let entries): entries.values.contains(where: hasNonFinite)
    default: false
    }
  }

  static func seeds(_ format: SettingsFormat) -> [[UInt8]] {
    let documents = [
      #"{"formatVersion":3,"speed":900,"theme":"dark","recent":["a","b"],"window":{"width":1024,"height":768}}"#,
      #"{"formatVersion":1,"scroll":120,"title":"Ada","extra":{"kept":[1,2.5,null,true]}}"#,
      #"{"formatVersion":9,"speed":3}"#,
      #"{"speed":"fast","volume":2,"name":""}"#,
      // Found by this target: a whole value written with a fraction changed on a round trip.
      #"{"formatVersion":3,"recent":["x",555555555555555555.555555555],"extra":1e19}"#,
    ]
    let handEdited = [
      "// hand edited\n{\n  speed: 300, /* block */ theme: 'light',\n  recent: ['x',],\n}\n",
      "{\"name\": \"Zoë\", \"volume\": .25, \"enabled\": false, // trailing\n}",
    ]
    switch format {
    case .appOwned:
      // The first byte chooses an envelope (even) or the bytes as they are (odd).
      var seeds = documents.map { [0] + Array($0.utf8) }
      var flipped = AtomicFile.envelope(Array(documents[0].utf8))
      flipped[flipped.count - 3] ^= 0x20
      seeds.append([1] + flipped)
      seeds.append([0] + Array(documents[0].utf8.prefix(40)))
      return seeds
    default:
      return (documents + handEdited).map { Array($0.utf8) }
    }
  }
}
