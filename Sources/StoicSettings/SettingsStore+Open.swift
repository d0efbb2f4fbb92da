public import StoicStore

extension SettingsStore {
  /// Opens the settings stored at `path`, never failing on what the file contains.
  ///
  /// Reads the current file, then `<path>.previous`; quarantines (renames to
  /// `<path>.corrupt-N`, never deletes) a file that cannot be used at all; migrates an older
  /// format; decodes field by field, keeping the default for each unusable field; and, for an
  /// ``SettingsFormat/appOwned`` store, writes a migrated or repaired document back at once
  /// (a failure to do so is reported in ``issues`` and as `settings.save_failed`, and the store
  /// still opens). A newer format opens read-only (see ``SettingsSource/newerFormat(version:)``).
  ///
  /// Events: `settings.loaded` always; `settings.recovered`, `settings.reset`,
  /// `settings.newer_format`, `settings.migrated`, `settings.repaired` and
  /// `settings.save_failed` as they apply; AtomicFile's `store.*` events pass through.
  ///
  /// - Parameters:
  ///   - path: The settings file. A missing directory is created by the first write.
  ///   - schema: The format: version, defaults, fields, migrations.
  ///   - format: ``SettingsFormat/appOwned`` (checksum envelope, write-back) or
  ///     ``SettingsFormat/handEdited`` (plain JSON with comments allowed, no write-back).
  ///   - fileSystem: Where the file lives; `nil` (the default) is the real disk, a
  ///     ``StoicStore/PosixFileSystem`` reporting to `events`. Tests pass a simulated disk.
  ///   - maxFileSize: The largest document, in bytes, the store reads or writes; default
  ///     1 MiB. A larger file is quarantined without being read into memory, and an update
  ///     whose document would be larger is refused with ``SettingsIssue/tooLarge(bytes:limit:)``.
  ///   - events: Where events go.
  /// - Returns: The open store.
  /// - Throws: ``StoreError/Code/invalidArgument`` for a schema that contradicts itself (see
  ///   ``SettingsSchema/check()``) or a `maxFileSize` below 1; the file system's error when the
  ///   disk itself fails (an `EIO` reading the file, a permission error). Content never makes
  ///   it throw: falling back to defaults on a read error could let the next update replace a
  ///   good file that was only momentarily unreadable.
  public static func open(
    at path: String,
    schema: SettingsSchema<Value>,
    format: SettingsFormat = .appOwned,
    fileSystem: (any FileSystem)? = nil,
    maxFileSize: Int = 1 << 20,
    events: EventSink = .discard
  ) throws(StoreError) -> SettingsStore {
    try schema.check()
    guard maxFileSize >= 1 else {
      throw StoreError(.invalidArgument, "maxFileSize \(maxFileSize) is below 1", path: path)
    }
    let fileSystem = fileSystem ?? PosixFileSystem(events: events)
    let envelope = format == .appOwned
    let options = AtomicFile.Options(
      envelope: envelope, keepPrevious: true,
      maxFileSize: UInt64(maxFileSize) + (envelope ? UInt64(AtomicFile.envelopeHeaderSize) : 0))
    let recorder = QuarantineRecorder(forwardingTo: events)
    let reader = AtomicFile(
      path: path, fileSystem: fileSystem, options: options, events: recorder.sink)

    var found: AtomicFile.ReadResult?
    var unusable = false
    do throws(StoreError) {
      found = try reader.read { bytes in
        switch schema.parse(bytes, format: format) {
        case .success:
          recorder.accepted()
          return true
        case .failure(let problem):
          recorder.rejected(problem.message)
          return false
        }
      }
    } catch {
      guard error.code == .corrupt else { throw error }
      unusable = true
    }

    let file = AtomicFile(path: path, fileSystem: fileSystem, options: options, events: events)
    var loaded = interpret(
      found, unusable: unusable, quarantines: recorder.issues, schema: schema, format: format,
      path: path, events: events)
    if case .writeBack = loaded.action {
      writeBack(&loaded.result, to: file, schema: schema, format: format, limit: maxFileSize)
    }
    events.emitSettings(
      EventCatalog.settingsLoaded,
      [
        ("path", path), ("source", loaded.result.source.description),
        ("issues", String(loaded.result.issues.count)),
      ])
    return SettingsStore(
      path: path, schema: schema, format: format, maxFileSize: maxFileSize, file: file,
      events: events, loaded: loaded.result)
  }

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
      events.emitSettings(
        EventCatalog.settingsReset, [("path", path), ("reason", why.isEmpty ? "unusable" : why)])
      return (
        SettingsLoaded(value: schema.defaults, source: .defaults(.unusable), issues: issues), .none
      )
    }

    if document.version > schema.version {
      events.emitSettings(
        EventCatalog.settingsNewerFormat, [("path", path), ("version", String(document.version))])
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
      events.emitSettings(
        EventCatalog.settingsRecovered,
        [("path", path), ("reason", why.isEmpty ? "current file missing" : why)])
    }
    let migrated = document.version < schema.version
    if migrated {
      issues.append(.migrated(from: document.version, to: schema.version))
      events.emitSettings(
        EventCatalog.settingsMigrated,
        [("path", path), ("from", String(document.version)), ("to", String(schema.version))])
    }
    let decoding = schema.decode(schema.migrate(document))
    if !decoding.repairs.isEmpty {
      let keys = decoding.repairs.compactMap { issue -> String? in
        guard case .repaired(let key, _) = issue else { return nil }
        return key
      }
      events.emitSettings(
        EventCatalog.settingsRepaired, [("path", path), ("fields", keys.joined(separator: ","))])
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
        try file.writeCreatingDirectory(bytes, validate: schema.accepts(format: format))
        return
      } catch {
        failure = error.description
      }
    }
    loaded.issues.append(.writeBackFailed(failure))
    file.events.emitSettings(
      EventCatalog.settingsSaveFailed, [("path", file.path), ("error", failure)])
  }
}

extension AtomicFile {
  /// Writes; when that fails because the file's directory is missing, creates the directory,
  /// makes its name durable (syncs its parent) and writes again.
  func writeCreatingDirectory(_ bytes: [UInt8], validate: @escaping ([UInt8]) -> Bool)
    throws(StoreError)
  {
    do throws(StoreError) {
      try write(bytes, validate: validate)
    } catch {
      let directory = Path.directory(of: path)
      guard error.code == .notFound, !((try? fileSystem.exists(path)) ?? true) else { throw error }
      try fileSystem.createDirectory(directory)
      try fileSystem.syncDirectory(Path.directory(of: directory))
      try write(bytes, validate: validate)
    }
  }
}

extension SettingsSchema {
  /// The check AtomicFile applies before a file is kept (as the previous generation) or
  /// returned: the bytes parse as a document. A newer format's document passes.
  func accepts(format: SettingsFormat) -> ([UInt8]) -> Bool {
    { bytes in
      guard case .success = parse(bytes, format: format) else { return false }
      return true
    }
  }
}
