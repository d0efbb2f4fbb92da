/// ANSI colours and weights, applied only when ``enabled`` (a terminal that accepts colour).
public struct Style: Sendable, Hashable {
  /// Whether text is painted at all.
  public let enabled: Bool

  /// A style that paints when `enabled`.
  public init(enabled: Bool) { self.enabled = enabled }

  /// How to paint.
  public enum Paint: String, Sendable, CaseIterable {
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

  /// The codes of the sequences ``callAsFunction(_:_:)`` writes: each paint's, and the reset.
  static let codes = Paint.allCases.map(\.rawValue) + ["0"]

  /// `text` painted with `paint` (its own control characters escaped, so no colour inside it
  /// passes), or `text` unchanged when colour is off.
  public func callAsFunction(_ text: String, _ paint: Paint) -> String {
    guard enabled, !text.isEmpty else { return text }
    let escaped = TerminalText.controlsEscaped(text, keepingStyle: false)
    return "\u{1B}[\(paint.rawValue)m\(escaped)\u{1B}[0m"
  }
}
