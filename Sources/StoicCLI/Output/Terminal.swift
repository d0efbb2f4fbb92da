import StoicStore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What the tool knows about where its output goes: whether standard output and standard
/// error are terminals, and whether colour is wanted there.
public struct Terminal: Sendable, Hashable {
  /// Standard output is a terminal.
  public var outputIsTerminal: Bool
  /// Standard error is a terminal.
  public var errorIsTerminal: Bool
  /// The environment asks for no colour (`NO_COLOR` set and not empty, or `TERM=dumb`).
  public var colourRefused: Bool

  /// A description of the output.
  public init(outputIsTerminal: Bool, errorIsTerminal: Bool, colourRefused: Bool) {
    self.outputIsTerminal = outputIsTerminal
    self.errorIsTerminal = errorIsTerminal
    self.colourRefused = colourRefused
  }

  /// The process's own output, as `isatty` and the environment describe it.
  public static func current(environment: [String: String]) -> Terminal {
    Terminal(
      outputIsTerminal: isatty(STDOUT_FILENO) == 1, errorIsTerminal: isatty(STDERR_FILENO) == 1,
      colourRefused: refusesColour(environment))
  }

  /// Whether `environment` refuses colour: `NO_COLOR` present and not empty
  /// (https://no-color.org), or `TERM=dumb`.
  public static func refusesColour(_ environment: [String: String]) -> Bool {
    if let value = environment["NO_COLOR"], !value.isEmpty { return true }
    return environment["TERM"] == "dumb"
  }

  /// Colour on standard output: only on a terminal, and never when refused.
  public var colourOnOutput: Bool { outputIsTerminal && !colourRefused }
  /// Colour on standard error: only on a terminal, and never when refused.
  public var colourOnError: Bool { errorIsTerminal && !colourRefused }
  /// A progress line on standard error: only on a terminal.
  public var showsProgress: Bool { errorIsTerminal }

  /// The width of the terminal on `descriptor` (80 when it is not a terminal or cannot tell).
  public static func columns(_ descriptor: Int32) -> Int {
    var size = winsize()
    if ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 {
      return Int(size.ws_col)
    }
    return 80
  }

  /// The variables of the process's environment the tool looks at (`NO_COLOR`, `TERM`).
  public static func environment() -> [String: String] {
    var found: [String: String] = [:]
    for name in ["NO_COLOR", "TERM"] {
      if let value = getenv(name) { found[name] = String(cString: value) }
    }
    return found
  }
}

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
