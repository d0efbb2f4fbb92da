public import StoicStore

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
