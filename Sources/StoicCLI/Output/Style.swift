/// ANSI colours and weights, applied only when ``enabled`` (a terminal that accepts colour).
public struct Style: Sendable, Hashable {
  /// Whether text is painted at all.
  public let enabled: Bool

  /// A style that paints when `enabled`.
  public init(enabled: Bool) { self.enabled = enabled }

  /// How to paint.
  public enum Paint: String, Sendable {
    /// Bold.
    case bold = "1"
    /// Dimmed.
    case dim = "2"
    /// Red: damage, errors.
    case red = "31"
    /// Green: clean.
    case green = "32"
    /// Yellow: warnings.
    case yellow = "33"
    /// Cyan: names.
    case cyan = "36"
  }

  /// `text` painted with `paint`, or `text` unchanged when colour is off.
  public func callAsFunction(_ text: String, _ paint: Paint) -> String {
    guard enabled, !text.isEmpty else { return text }
    return "\u{1B}[\(paint.rawValue)m\(text)\u{1B}[0m"
  }
}
