import StoicSettings
import StoicStore
import StoicTesting
import Testing

/// A theme, stored by raw value: an unknown string in a file is a repaired field.
enum Theme: String, Codable, Sendable {
  case light
  case dark
  case system
}

/// The settings most tests use.
struct Prefs: Sendable, Equatable {
  var scrollSpeed = 600
  var theme = Theme.system
  var name = "Guest"
  var recent: [String] = []
  var volume = 0.5

  static let fields: [SettingsSchema<Prefs>.Field] = [
    .field("scrollSpeed", \.scrollSpeed, .range(1...2000)),
    .field("theme", \.theme),
    .field("name", \.name, .nonEmpty, .maxCount(32)),
    .field("recent", \.recent, .maxCount(5)),
    .field("volume", \.volume, .range(0...1)),
  ]

  /// Version 2; version 1 stored the scroll speed as `speed`.
  static let schema = SettingsSchema(
    version: 2, defaults: Prefs(), fields: fields,
    migrations: [.renaming("speed", to: "scrollSpeed", from: 1)])

  /// The same fields, keeping unknown keys.
  static let preservingSchema = SettingsSchema(
    version: 2, defaults: Prefs(), fields: fields,
    migrations: [.renaming("speed", to: "scrollSpeed", from: 1)], preservesUnknownKeys: true)

  /// An older build's schema: version 1, `speed` instead of `scrollSpeed`.
  static let schemaV1 = SettingsSchema(
    version: 1, defaults: Prefs(),
    fields: [.field("speed", \.scrollSpeed, .range(1...2000)), .field("name", \.name)])
}

/// A single counter, for concurrency tests.
struct Counter: Sendable, Equatable {
  var count = 0

  static let schema = SettingsSchema(
    version: 1, defaults: Counter(), fields: [.field("count", \.count, .range(0...1_000_000))])
}

/// The settings file every test uses. (Not `settings.…`: string literals with that prefix are
/// reserved for event names, which the catalog test scans for.)
let settingsPath = "prefs.json"

/// Where AtomicFile keeps the previous generation.
let previousPath = settingsPath + ".previous"

/// Where AtomicFile puts the `number`-th quarantined file.
func quarantinePath(_ number: Int) -> String { settingsPath + ".corrupt-\(number)" }

/// Collects events, for assertions.
final class EventLog: Sendable {
  private let events = SleepingLock<[StoreEvent]>([])

  var sink: EventSink {
    EventSink { [self] event in events.withLock { $0.append(event) } }
  }

  var all: [StoreEvent] { events.withLock { $0 } }
  var names: [String] { all.map(\.name) }

  func first(_ name: String) -> StoreEvent? { all.first { $0.name == name } }

  /// Every event is in the settings store's or the storage core's catalog, as declared there.
  func expectAllRegistered(sourceLocation: SourceLocation = #_sourceLocation) {
    let catalog = EventCatalog(combining: [SettingsEvents.catalog, StoreEvents.catalog])
    for event in all {
      let entry = catalog.entry(named: event.name)
      #expect(entry != nil, "unregistered event \(event)", sourceLocation: sourceLocation)
      if let entry {
        #expect(entry == event.definition, "definition of \(event)", sourceLocation: sourceLocation)
      }
    }
  }
}

/// Writes a settings document into the durable state of `disk`, as the store would store it.
func plant(
  _ json: String, on disk: SimulatedFileSystem, at path: String = settingsPath,
  format: SettingsFormat = .appOwned
) {
  disk.setDurableContents(path, stored(json, format: format))
}

/// The bytes a file of `format` holds for the document `json`.
func stored(_ json: String, format: SettingsFormat = .appOwned) -> [UInt8] {
  format == .appOwned ? AtomicFile.envelope(Array(json.utf8)) : Array(json.utf8)
}

/// The document in a file's bytes (nil when they are not one).
func document(_ bytes: [UInt8]?, format: SettingsFormat = .appOwned) -> [String: SettingsJSON]? {
  guard let bytes else { return nil }
  let payload: [UInt8]
  if format == .appOwned {
    guard let opened = try? AtomicFile.openEnvelope(bytes) else { return nil }
    payload = opened
  } else {
    payload = bytes
  }
  guard case .object(let entries)? = try? JSONText.parse(payload) else { return nil }
  return entries
}

/// The document currently stored at `path` on `disk`.
func currentDocument(
  on disk: SimulatedFileSystem, at path: String = settingsPath, format: SettingsFormat = .appOwned
) -> [String: SettingsJSON]? {
  document(disk.contents(path), format: format)
}

/// Opens a `Prefs` store.
func openPrefs(
  on disk: SimulatedFileSystem, schema: SettingsSchema<Prefs> = Prefs.schema,
  format: SettingsFormat = .appOwned, maxFileSize: Int = 1 << 20, events: EventSink = .discard
) throws(StoreError) -> SettingsStore<Prefs> {
  try SettingsStore.open(
    at: settingsPath, schema: schema, format: format, fileSystem: disk, maxFileSize: maxFileSize,
    events: events)
}
