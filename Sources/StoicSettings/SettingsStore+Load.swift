import StoicStore

extension SettingsStore {
  /// What to do after interpreting a read.
  enum LoadAction {
    /// Nothing more.
    case none
    /// Write the migrated or repaired document back (app-owned stores only).
    case writeBack
  }

  /// Turns what AtomicFile found into the value, source and issues, emitting the events that
  /// say what happened.
  static func interpret(
    _ found: AtomicFile.ReadResult?, unusable: Bool, quarantines: [SettingsIssue],
    schema: SettingsSchema<Value>, format: SettingsFormat, path: String, events: EventSink
  ) -> (result: SettingsLoaded<Value>, action: LoadAction) {
    var issues = quarantines
    let why = quarantines.map(\.description).joined(separator: "; ")
    guard let found, case .success(let document) = schema.parse(found.bytes, format: format)
    else {
      guard unusable || found != nil else {
        return (SettingsLoaded(value: schema.defaults, source: .defaults(.noFile)), .none)
      }
      events.emit(
        SettingsEvents.reset, [("path", path), ("reason", why.isEmpty ? "unusable" : why)])
      return (
        SettingsLoaded(value: schema.defaults, source: .defaults(.unusable), issues: issues), .none
      )
    }

    if document.version > schema.version {
      events.emit(
        SettingsEvents.newerFormat, [("path", path), ("version", String(document.version))])
      var loaded = SettingsLoaded(
        value: schema.defaults, source: .newerFormat(version: document.version), issues: issues,
        readOnlyVersion: document.version)
      if schema.preservesUnknownKeys {
        let decoding = schema.decode(document)
        loaded.value = decoding.value
        loaded.preserved = decoding.preserved
        loaded.issues += decoding.repairs
      }
      return (loaded, .none)
    }

    let source: SettingsSource = found.source == .current ? .file : .previousGeneration
    if source == .previousGeneration {
      events.emit(
        SettingsEvents.recovered,
        [("path", path), ("reason", why.isEmpty ? "current file missing" : why)])
    }
    let migrated = document.version < schema.version
    if migrated {
      issues.append(.migrated(from: document.version, to: schema.version))
      events.emit(
        SettingsEvents.migrated,
        [("path", path), ("from", String(document.version)), ("to", String(schema.version))])
    }
    let decoding = schema.decode(schema.migrate(document))
    if !decoding.repairs.isEmpty {
      let keys = decoding.repairs.compactMap { issue -> String? in
        guard case .repaired(let key, _) = issue else { return nil }
        return key
      }
      events.emit(
        SettingsEvents.repaired, [("path", path), ("fields", keys.joined(separator: ","))])
    }
    issues += decoding.repairs + decoding.unknownKeys
    let loaded = SettingsLoaded(
      value: decoding.value, source: source, issues: issues, preserved: decoding.preserved)
    let rewrite = format == .appOwned && (migrated || !decoding.repairs.isEmpty)
    return (loaded, rewrite ? .writeBack : .none)
  }

  /// Writes the loaded value back in the current format. A failure is recorded as an issue and
  /// a `settings.save_failed` event; the loaded value stays in effect.
  static func writeBack(
    _ loaded: inout SettingsLoaded<Value>, to file: AtomicFile, schema: SettingsSchema<Value>,
    format: SettingsFormat, limit: Int
  ) {
    let failure: String
    switch schema.encodeDocument(loaded.value, preserving: loaded.preserved) {
    case .failure(let refusal):
      failure = refusal.description
    case .success(let bytes) where bytes.count > limit:
      failure = SettingsIssue.tooLarge(bytes: bytes.count, limit: limit).description
    case .success(let bytes):
      do throws(StoreError) {
        try file.write(bytes, validate: schema.accepts(format: format))
        return
      } catch {
        failure = error.description
      }
    }
    loaded.issues.append(.writeBackFailed(failure))
    file.events.emit(
      SettingsEvents.saveFailed, [("path", file.path), ("error", failure)])
  }
}

/// What a load produced: the value a store opens with, and how it got it.
struct SettingsLoaded<Value: Sendable & Equatable>: Sendable {
  /// The settings.
  var value: Value
  /// Where they came from.
  var source: SettingsSource
  /// What was repaired, migrated, dropped or quarantined.
  var issues: [SettingsIssue] = []
  /// Unknown keys to write back with every update.
  var preserved: [String: SettingsJSON] = [:]
  /// The newer format version that makes the store read-only, if any.
  var readOnlyVersion: Int?
}
