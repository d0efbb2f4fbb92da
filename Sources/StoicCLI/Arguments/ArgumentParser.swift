/// Parses a subcommand's arguments against its ``CommandSpec``.
///
/// The rules, the ones most command-line tools follow:
/// - `--name` for a flag; `--name VALUE` or `--name=VALUE` for an option with a value; the
///   one-letter form `-n VALUE`, `-nVALUE`, or `-f` for a flag (letters are not grouped).
/// - A value is taken as given, even if it starts with `-` (`--grep -v` searches for `-v`);
///   `--name=VALUE` says so unambiguously.
/// - An option given twice is refused unless it is repeatable; each value of a repeatable
///   option is kept in order.
/// - `--` ends the options: everything after it is a positional argument. A lone `-` is a
///   positional argument.
/// - Anything unknown, a missing value, a value given to a flag, a missing or an extra
///   positional argument is a ``UsageError``, never ignored; except that with a `help` flag
///   given the positional arguments are not counted (`stoic verify --help` needs no path).
public enum ArgumentParser {
  /// Parses `arguments`, the words after the subcommand's name.
  ///
  /// - Throws: ``UsageError`` naming the first word that does not fit `spec`.
  public static func parse(_ arguments: [String], for spec: CommandSpec) throws(UsageError)
    -> ParsedCommand
  {
    var positionals: [String] = []
    var options: [String: [String]] = [:]
    var index = 0
    var optionsEnded = false
    while index < arguments.count {
      let word = arguments[index]
      index += 1
      if optionsEnded || word == "-" || word.utf8.first != UInt8(ascii: "-") {
        positionals.append(word)
        continue
      }
      if word == "--" {
        optionsEnded = true
        continue
      }
      let (option, inline) = try recognise(word, in: spec)
      var value = ""
      if option.takesValue {
        if let inline {
          value = inline
        } else if index < arguments.count {
          value = arguments[index]
          index += 1
        } else {
          throw UsageError(
            "option --\(option.name) needs a value (\(option.valueName ?? "VALUE"))",
            command: spec.name)
        }
      } else if inline != nil {
        throw UsageError("option --\(option.name) takes no value", command: spec.name)
      }
      if options[option.name] != nil, !option.repeatable {
        throw UsageError("option --\(option.name) is given more than once", command: spec.name)
      }
      options[option.name, default: []].append(value)
    }
    if options["help"] != nil {
      return ParsedCommand(command: spec.name, arguments: positionals, options: options)
    }
    let required = spec.arguments.filter { !$0.optional }
    if positionals.count < required.count {
      let missing = required[positionals.count...].map(\.name).joined(separator: " ")
      throw UsageError("'\(spec.name)' needs \(missing)", command: spec.name)
    }
    if positionals.count > spec.arguments.count {
      throw UsageError(
        "unexpected argument '\(positionals[spec.arguments.count])' for '\(spec.name)'",
        command: spec.name)
    }
    return ParsedCommand(command: spec.name, arguments: positionals, options: options)
  }

  /// The option a word names and the value written into it (`--name=value`, `-nvalue`).
  ///
  /// The word is read as Unicode scalars, not characters: a value that starts with a combining
  /// mark would otherwise join the `=` or the option's letter into one character.
  private static func recognise(_ word: String, in spec: CommandSpec) throws(UsageError) -> (
    OptionSpec, String?
  ) {
    let scalars = word.unicodeScalars
    if word.utf8.starts(with: "--".utf8) {
      let body = scalars.dropFirst(2)
      let name: String
      var inline: String?
      if let equals = body.firstIndex(of: "=") {
        name = String(Substring(body[..<equals]))
        inline = String(Substring(body[body.index(after: equals)...]))
      } else {
        name = String(Substring(body))
      }
      guard let option = spec.option(named: name) else {
        throw UsageError("unknown option '--\(name)' for '\(spec.name)'", command: spec.name)
      }
      return (option, inline)
    }
    let letters = scalars.dropFirst()
    guard let letter = letters.first, let option = spec.option(short: Character(letter)) else {
      throw UsageError("unknown option '\(word)' for '\(spec.name)'", command: spec.name)
    }
    let rest = String(Substring(letters.dropFirst()))
    if option.takesValue { return (option, rest.isEmpty ? nil : rest) }
    guard rest.isEmpty else {
      throw UsageError("unknown option '\(word)' for '\(spec.name)'", command: spec.name)
    }
    return (option, nil)
  }
}

/// A command line the parser accepted: the subcommand, its options and its positional
/// arguments.
public struct ParsedCommand: Sendable, Hashable {
  /// The subcommand's name.
  public let command: String
  /// The positional arguments, in order.
  public let arguments: [String]
  /// Every value given for each option, by long name, in order; a flag holds one empty string
  /// per time it was given.
  public let options: [String: [String]]

  /// A parsed command line.
  public init(command: String, arguments: [String], options: [String: [String]]) {
    self.command = command
    self.arguments = arguments
    self.options = options
  }

  /// Whether the flag or option `name` was given.
  public func flag(_ name: String) -> Bool {
    options[name] != nil
  }

  /// The value of option `name` (the last one given), if any.
  public func value(_ name: String) -> String? {
    options[name]?.last
  }

  /// Every value given for the repeatable option `name`, in order.
  public func values(_ name: String) -> [String] {
    options[name] ?? []
  }

  /// The positional argument at `index`, if it was given.
  public func argument(_ index: Int) -> String? {
    arguments.indices.contains(index) ? arguments[index] : nil
  }
}

/// A command line the tool cannot act on: an unknown command or option, a missing or extra
/// argument, a value that does not parse. The tool prints it with the usage and exits 64.
public struct UsageError: Error, Sendable, Hashable, CustomStringConvertible {
  /// One sentence naming what is wrong.
  public let message: String
  /// The subcommand whose usage applies, if one was recognised.
  public let command: String?

  /// A usage error.
  public init(_ message: String, command: String? = nil) {
    self.message = message
    self.command = command
  }

  /// The message.
  public var description: String { message }
}
