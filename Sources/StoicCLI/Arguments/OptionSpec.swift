/// One option a command accepts: `--name`, or `--name VALUE` / `--name=VALUE`, with an optional
/// one-letter form (`-n VALUE`, `-f`).
public struct OptionSpec: Sendable, Hashable {
  /// The long name, without the dashes (`json`, `max-record-size`).
  public let name: String
  /// The one-letter form, without the dash, if any.
  public let short: Character?
  /// The placeholder of the value in help (`N`, `KIND`), or `nil` for a flag that takes none.
  public let valueName: String?
  /// Whether the option may be given more than once (each value is kept, in order).
  public let repeatable: Bool
  /// One line for `stoic help COMMAND`.
  public let help: String

  /// A flag: present or absent, no value.
  public static func flag(_ name: String, short: Character? = nil, help: String) -> OptionSpec {
    OptionSpec(name: name, short: short, valueName: nil, repeatable: false, help: help)
  }

  /// An option with a value.
  public static func value(
    _ name: String, short: Character? = nil, valueName: String, repeatable: Bool = false,
    help: String
  ) -> OptionSpec {
    OptionSpec(name: name, short: short, valueName: valueName, repeatable: repeatable, help: help)
  }

  /// Whether the option takes a value.
  public var takesValue: Bool { valueName != nil }

  /// How the option is written in help: `-n, --lines N`.
  public var synopsis: String {
    var text = "--\(name)"
    if let valueName { text += " \(valueName)" }
    if let short { text = "-\(short), " + text }
    return text
  }
}
