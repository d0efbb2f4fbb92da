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
