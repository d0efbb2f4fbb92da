/// Where the settings a store opened with came from.
public enum SettingsSource: Sendable, Hashable, CustomStringConvertible {
  /// The current file.
  case file
  /// The previous generation (`<path>.previous`), because the current file was missing or
  /// unusable (see ``SettingsStore/issues`` for what was quarantined and why).
  case previousGeneration
  /// The schema's defaults.
  case defaults(DefaultsReason)
  /// A file written by a newer format `version` than the schema knows. The store is read-only:
  /// the file is never quarantined, fallen back over or overwritten, and
  /// ``SettingsStore/update(_:)`` throws. The value is the defaults, or, when the schema
  /// preserves unknown keys, the fields it can read.
  case newerFormat(version: Int)

  /// Why the defaults are in effect.
  public enum DefaultsReason: Sendable, Hashable, CustomStringConvertible {
    /// There is no settings file yet (a first launch).
    case noFile
    /// Every file found was unusable and was quarantined; ``SettingsStore/issues`` says which
    /// and why.
    case unusable

    /// `noFile` or `unusable`.
    public var description: String {
      switch self {
      case .noFile: "noFile"
      case .unusable: "unusable"
      }
    }
  }

  /// `file`, `previousGeneration`, `defaults(noFile)`, `newerFormat(3)`, ….
  public var description: String {
    switch self {
    case .file: "file"
    case .previousGeneration: "previousGeneration"
    case .defaults(let reason): "defaults(\(reason))"
    case .newerFormat(let version): "newerFormat(\(version))"
    }
  }
}
