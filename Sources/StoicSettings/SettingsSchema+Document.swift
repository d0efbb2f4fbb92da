extension SettingsSchema {
  /// Parses the bytes of a file (the payload, without the envelope) into a document.
  ///
  /// A document of a newer version than the schema's parses successfully: it must never be
  /// treated as unusable.
  func parse(_ bytes: [UInt8], format: SettingsFormat) -> Result<
    SettingsDocument, SettingsDocumentProblem
  > {
    let json: SettingsJSON
    do {
      json = try SettingsCoding.parse(bytes, json5: format == .handEdited)
    } catch let problem as SettingsDocumentProblem {
      return .failure(problem)
    } catch {
      return .failure(
        SettingsDocumentProblem(message: "not JSON: \(SettingsCoding.describe(error))"))
    }
    guard case .object(var entries) = json else {
      return .failure(
        SettingsDocumentProblem(
          message: "wrong shape: the top level is \(json.kind), not an object"))
    }
    let version: Int
    switch entries.removeValue(forKey: versionKey) {
    case nil:
      version = versionWhenMissing ?? self.version
    case .integer(let declared)? where declared >= 1 && declared <= Int64(Int.max):
      version = Int(declared)
    case let declared?:
      return .failure(
        SettingsDocumentProblem(
          message: "wrong shape: \(versionKey) is \(declared), not a positive whole number"))
    }
    return .success(SettingsDocument(version: version, entries: entries))
  }

  /// Runs the migrations from the document's version up to the schema's.
  func migrate(_ document: SettingsDocument) -> SettingsDocument {
    guard document.version < version else { return document }
    var entries = document.entries
    for step in document.version..<version {
      migrations.first { $0.from == step }?.transform(&entries)
    }
    return SettingsDocument(version: version, entries: entries)
  }

  /// Decodes a (migrated) document field by field: a field whose stored value is unusable keeps
  /// its default and is reported as repaired; keys the schema does not declare are preserved or
  /// reported.
  func decode(_ document: SettingsDocument) -> SettingsDecoding<Value> {
    var decoding = SettingsDecoding(value: defaults)
    for field in fields {
      guard let json = document.entries[field.key] else { continue }
      let problems = field.decode(json, &decoding.value)
      if !problems.isEmpty {
        decoding.repairs.append(
          .repaired(key: field.key, problem: problems.joined(separator: "; ")))
      }
    }
    let declared = Set(fields.map(\.key))
    for key in document.entries.keys.sorted() where !declared.contains(key) {
      if preservesUnknownKeys, let json = document.entries[key],
        (try? SettingsCoding.encode(json, pretty: false)) != nil
      {
        decoding.preserved[key] = json
      } else {
        decoding.unknownKeys.append(.unknownKey(key))
      }
    }
    return decoding
  }

  /// The file's bytes for `value`: the format version, every field that differs from its
  /// default, and the preserved unknown keys; keys sorted, pretty-printed.
  ///
  /// - Returns: The bytes, or every problem that keeps `value` from being stored.
  func encodeDocument(_ value: Value, preserving preserved: [String: SettingsJSON]) -> Result<
    [UInt8], SettingsRefusal
  > {
    var entries = preserved
    var issues: [SettingsIssue] = []
    for field in fields {
      entries[field.key] = nil
      switch field.encode(value) {
      case .invalid(let problems):
        issues += problems.map { .invalid(key: field.key, problem: $0) }
      case .json(let json):
        if !field.agrees(value, defaults) { entries[field.key] = json }
      }
    }
    guard issues.isEmpty else { return .failure(SettingsRefusal(issues: issues)) }
    entries[versionKey] = .integer(Int64(version))
    do {
      return .success(try SettingsCoding.encode(SettingsJSON.object(entries)))
    } catch {
      return .failure(
        SettingsRefusal(issues: [
          .invalid(
            key: versionKey,
            problem: "the document cannot be stored: \(SettingsCoding.describe(error))")
        ]))
    }
  }
}

/// A settings file parsed into its format version and its entries (every key but the version
/// key).
struct SettingsDocument: Sendable, Hashable {
  /// The format version the document declares (or the schema assumes for it).
  var version: Int
  /// The document's keys and values, without the version key.
  var entries: [String: SettingsJSON]
}

/// Why a file cannot be used as a settings document at all.
struct SettingsDocumentProblem: Error, Sendable, Hashable {
  /// A sentence: "not JSON: …", "wrong shape: …".
  let message: String
}

/// The result of decoding a document with a schema.
struct SettingsDecoding<Value: Sendable & Equatable>: Sendable {
  /// The settings: defaults, overlaid with every usable field.
  var value: Value
  /// One ``SettingsIssue/repaired(key:problem:)`` per field that fell back to its default.
  var repairs: [SettingsIssue] = []
  /// One ``SettingsIssue/unknownKey(_:)`` per undeclared key that was dropped.
  var unknownKeys: [SettingsIssue] = []
  /// The undeclared keys kept, when the schema preserves them.
  var preserved: [String: SettingsJSON] = [:]
}
