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
