/// A rule a field's value must satisfy, checked when a file is loaded and before an update is
/// written.
///
/// A stored value that breaks a rule is replaced by the field's default on load (a
/// ``SettingsIssue/repaired(key:problem:)`` issue); an update that breaks one is refused
/// (``SettingsIssue/invalid(key:problem:)``).
///
/// ```swift
/// .field("scrollSpeed", \.scrollSpeed, .range(1...2000))
/// .field("theme", \.theme, .oneOf(["light", "dark", "system"]))
/// .field("name", \.name, .nonEmpty, .maxCount(64))
/// .field("step", \.step, SettingsConstraint("must be even") { $0 % 2 == 0 })
/// ```
public struct SettingsConstraint<T: Sendable>: Sendable {
  /// What the rule requires, as the end of a sentence (`"must be within 1...2000"`).
  public let requirement: String
  private let isSatisfied: @Sendable (T) -> Bool

  /// Creates a rule from a requirement and a predicate.
  ///
  /// - Parameters:
  ///   - requirement: What the rule requires, as the end of a sentence ("must be even").
  ///   - isSatisfied: Whether a value satisfies it. It must not trap on any value.
  public init(_ requirement: String, _ isSatisfied: @escaping @Sendable (T) -> Bool) {
    self.requirement = requirement
    self.isSatisfied = isSatisfied
  }

  /// The problem with `value`, or `nil` when it satisfies the rule.
  func problem(with value: T) -> String? {
    guard !isSatisfied(value) else { return nil }
    return "\(SettingsCoding.trimmed(String(describing: value), limit: 60)) \(requirement)"
  }
}

extension SettingsConstraint where T: Comparable {
  /// The value must lie within `range` (bounds included).
  public static func range(_ range: ClosedRange<T>) -> SettingsConstraint {
    SettingsConstraint("must be within \(range)") { range.contains($0) }
  }
}

extension SettingsConstraint where T: Equatable {
  /// The value must be one of `values`.
  public static func oneOf(_ values: [T]) -> SettingsConstraint {
    SettingsConstraint("must be one of \(values)") { values.contains($0) }
  }
}

extension SettingsConstraint where T: Collection {
  /// The value (a string, an array, …) must not be empty.
  public static var nonEmpty: SettingsConstraint {
    SettingsConstraint("must not be empty") { !$0.isEmpty }
  }

  /// The value (a string, an array, …) must have at most `limit` elements.
  public static func maxCount(_ limit: Int) -> SettingsConstraint {
    SettingsConstraint("must have at most \(limit) elements") { $0.count <= limit }
  }
}
