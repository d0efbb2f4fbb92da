public import StoicStore

/// Something a load repaired or warned about, or a reason an update was refused.
public enum SettingsIssue: Sendable, Hashable, CustomStringConvertible {
  /// Load: the stored value of `key` was unusable (wrong type, out of range, …); the field's
  /// default is in effect and every other field was kept.
  case repaired(key: String, problem: String)
  /// Update: the new value of `key` breaks the schema; the update was refused.
  case invalid(key: String, problem: String)
  /// Load: the document has a key the schema does not declare. It was dropped (the next write
  /// leaves it out) because the schema does not preserve unknown keys.
  case unknownKey(String)
  /// Load: a whole file at `path` could not be used (torn, not JSON, the wrong shape, too
  /// large) and was renamed to `movedTo`, never deleted.
  case quarantined(path: String, movedTo: String, problem: String)
  /// Load: the document was migrated from format version `from` to `to`.
  case migrated(from: Int, to: Int)
  /// Load: the migrated or repaired settings could not be written back; they are in effect in
  /// memory and the file is unchanged.
  case writeBackFailed(String)
  /// Update: the file was written by newer format `version`; the store is read-only.
  case readOnly(version: Int)
  /// Update: the encoded document would be `bytes` long, over the store's `limit`.
  case tooLarge(bytes: Int, limit: Int)

  /// A sentence for logs and diagnostics.
  public var description: String {
    switch self {
    case .repaired(let key, let problem): "\(key): \(problem); the default is in effect"
    case .invalid(let key, let problem): "\(key): \(problem)"
    case .unknownKey(let key): "\(key): not in the schema; dropped"
    case .quarantined(let path, let movedTo, let problem):
      "\(path) was unusable (\(problem)) and was moved to \(movedTo)"
    case .migrated(let from, let to): "migrated from format version \(from) to \(to)"
    case .writeBackFailed(let error): "the migrated or repaired file was not written: \(error)"
    case .readOnly(let version):
      "the file was written by a newer format (version \(version)) and is read-only"
    case .tooLarge(let bytes, let limit): "the document would be \(bytes) bytes, over \(limit)"
    }
  }
}

/// Why ``SettingsStore/update(_:)`` refused a change: the `StoreError.cause` of the error it
/// throws (read it with `StoreError.settingsIssues`).
public struct SettingsRefusal: Error, Sendable, Hashable, CustomStringConvertible {
  /// Every problem found, not only the first.
  public let issues: [SettingsIssue]

  /// Creates a refusal.
  public init(issues: [SettingsIssue]) {
    self.issues = issues
  }

  /// The issues, separated by semicolons.
  public var description: String {
    issues.map(\.description).joined(separator: "; ")
  }
}

extension StoreError {
  /// The issues that made ``SettingsStore/update(_:)`` refuse a change, or `nil` when this
  /// error is not such a refusal (a failed write, for example).
  public var settingsIssues: [SettingsIssue]? {
    (cause as? SettingsRefusal)?.issues
  }
}
