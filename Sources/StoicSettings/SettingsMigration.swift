/// One step of a schema's history: rewrites a document of format version ``from`` into version
/// `from + 1`.
///
/// Migrations work on the document's JSON object (without the format version key, which the
/// store manages). They run in order while a file is decoded; a version step with no migration
/// is a no-op (fields added in that version take their defaults). A migration must not trap on
/// any input: it sees whatever an older build, or a person, stored.
///
/// ```swift
/// SettingsMigration(from: 1) { document in
///   // Version 2 stores the speed in points per second instead of lines.
///   if case .integer(let lines)? = document["speed"] {
///     document["scrollSpeed"] = .integer(lines.multipliedReportingOverflow(by: 30).partialValue)
///   }
///   document["speed"] = nil
/// }
/// ```
public struct SettingsMigration: Sendable {
  /// The version this step migrates from; the result is version `from + 1`.
  public let from: Int
  let transform: @Sendable (inout [String: SettingsJSON]) -> Void

  /// Creates a migration step.
  ///
  /// - Parameters:
  ///   - from: The version the step migrates from.
  ///   - transform: Rewrites the document in place.
  public init(
    from: Int, _ transform: @escaping @Sendable (inout [String: SettingsJSON]) -> Void
  ) {
    self.from = from
    self.transform = transform
  }

  /// A step that renames a key (the value moves unchanged; nothing happens when the old key is
  /// absent, and an existing value under the new key is kept).
  public static func renaming(_ oldKey: String, to newKey: String, from: Int) -> SettingsMigration {
    SettingsMigration(from: from) { document in
      guard let value = document.removeValue(forKey: oldKey) else { return }
      if document[newKey] == nil { document[newKey] = value }
    }
  }
}
