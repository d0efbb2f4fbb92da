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
  ///     `PosixFileSystem` reporting to `events`. Tests pass a simulated disk.
  ///   - maxFileSize: The largest document, in bytes, the store reads or writes; default
  ///     1 MiB. A larger file is quarantined without being read into memory, and an update
  ///     whose document would be larger is refused with ``SettingsIssue/tooLarge(bytes:limit:)``.
  ///   - permissions: The permission bits each written file gets, whatever the umask: by
  ///     default `FilePermissions.privateFile` (`0600`); a settings file other
  ///     programs read asks for more, for example
  ///     `FilePermissions.readableByAll` (`0644`). A missing directory is created
  ///     with matching bits (`FilePermissions.forDirectory`).
  ///   - events: Where events go.
  /// - Returns: The open store.
  /// - Throws: `StoreError.Code.invalidArgument` for a schema that contradicts itself (see
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
    permissions: FilePermissions = .privateFile,
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
      maxFileSize: UInt64(maxFileSize) + (envelope ? UInt64(AtomicFile.envelopeHeaderSize) : 0),
      permissions: permissions)
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
    events.emit(
      SettingsEvents.loaded,
      [
        ("path", path), ("source", loaded.result.source.description),
        ("issues", String(loaded.result.issues.count)),
      ])
    return SettingsStore(
      path: path, schema: schema, format: format, maxFileSize: maxFileSize, file: file,
      events: events, loaded: loaded.result)
  }
}
