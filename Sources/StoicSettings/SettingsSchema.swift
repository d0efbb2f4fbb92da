public import StoicStore

/// One declaration of a settings format: its version, the defaults, every field with its
/// constraints, the migrations from older versions, and whether unknown keys are kept.
///
/// ```swift
/// struct Prefs: Sendable, Equatable {
///   var scrollSpeed = 600
///   var theme = "system"
///   var recentFiles: [String] = []
///
///   static let schema = SettingsSchema(
///     version: 2,
///     defaults: Prefs(),
///     fields: [
///       .field("scrollSpeed", \.scrollSpeed, .range(1...2000)),
///       .field("theme", \.theme, .oneOf(["light", "dark", "system"])),
///       .field("recentFiles", \.recentFiles, .maxCount(20)),
///     ],
///     migrations: [.renaming("speed", to: "scrollSpeed", from: 1)]
///   )
/// }
/// ```
///
/// A document is a JSON object: the format version under ``versionKey`` and one key per field
/// whose value differs from the default. Decoding is field by field, so one unusable field
/// falls back to its default and the others are kept.
public struct SettingsSchema<Value: Sendable & Equatable>: Sendable {
  /// The format version this schema writes (1 or more).
  public var version: Int
  /// The value every field falls back to.
  public var defaults: Value
  /// The fields, each stored under its own key.
  public var fields: [Field]
  /// Steps from older versions, each from `n` to `n + 1`.
  public var migrations: [SettingsMigration]
  /// Whether keys the schema does not declare are kept and written back (`true`), or dropped
  /// and reported as ``SettingsIssue/unknownKey(_:)`` (`false`). A schema that preserves unknown
  /// keys also reads the fields it knows from a newer format's document (read-only).
  public var preservesUnknownKeys: Bool
  /// The key holding the format version. Default `"formatVersion"`.
  public var versionKey: String
  /// The version assumed for a document without ``versionKey`` (written by hand, or by an app
  /// before it adopted the schema). `nil` (the default) means the current ``version``.
  public var versionWhenMissing: Int?

  /// Declares a schema.
  ///
  /// The declaration is checked when a store opens (see
  /// ``SettingsStore/open(at:schema:format:fileSystem:maxFileSize:permissions:events:)``).
  public init(
    version: Int,
    defaults: Value,
    fields: [Field],
    migrations: [SettingsMigration] = [],
    preservesUnknownKeys: Bool = false,
    versionKey: String = "formatVersion",
    versionWhenMissing: Int? = nil
  ) {
    self.version = version
    self.defaults = defaults
    self.fields = fields
    self.migrations = migrations
    self.preservesUnknownKeys = preservesUnknownKeys
    self.versionKey = versionKey
    self.versionWhenMissing = versionWhenMissing
  }

  /// Checks the declaration itself: a version of 1 or more, distinct non-empty keys that are
  /// not the version key, one migration per step below the version, and defaults that satisfy
  /// every constraint.
  ///
  /// - Throws: `StoreError.Code.invalidArgument` naming every mistake.
  public func check() throws(StoreError) {
    var mistakes: [String] = []
    if version < 1 { mistakes.append("version \(version) is below 1") }
    if let missing = versionWhenMissing, missing < 1 || missing > version {
      mistakes.append("versionWhenMissing \(missing) is outside 1...\(version)")
    }
    var keys: Set<String> = []
    for field in fields {
      if field.key.isEmpty { mistakes.append("a field has an empty key") }
      if field.key == versionKey { mistakes.append("field \(field.key) uses the version key") }
      if !keys.insert(field.key).inserted { mistakes.append("key \(field.key) is declared twice") }
      if case .invalid(let problems) = field.encode(defaults) {
        mistakes += problems.map { "default of \(field.key): \($0)" }
      }
    }
    var steps: Set<Int> = []
    for migration in migrations {
      if migration.from < 1 || migration.from >= version {
        mistakes.append("migration from \(migration.from) is outside 1..<\(version)")
      }
      if !steps.insert(migration.from).inserted {
        mistakes.append("two migrations from \(migration.from)")
      }
    }
    guard mistakes.isEmpty else {
      throw StoreError(
        .invalidArgument, "invalid settings schema: \(mistakes.joined(separator: "; "))")
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
