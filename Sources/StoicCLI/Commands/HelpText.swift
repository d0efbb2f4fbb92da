/// The text of `stoic help` and `stoic help COMMAND`, made from the commands' specs.
enum HelpText {
  /// The exit statuses, as every help page lists them.
  static let exitStatuses: [(ExitStatus, String)] = [
    (.success, "done; for verify, nothing the library would refuse"),
    (
      .damage,
      "damage found (verify), a damaged store refused (compact), demo failed, a batch parked "
        + "(drain)"
    ),
    (.unreadable, "the store could not be read (or written): permissions, I/O"),
    (.usage, "unknown command or option, missing or malformed argument"),
    (.noStore, "the path does not exist or is not a Stoic store"),
    (.held, "a command that writes found the store held by another process"),
    (.tryLater, "drain stopped on a transient failure; run it again later"),
    (.refused, "drain refused by the receiver (401, 403): check the credentials"),
  ]

  /// `stoic help`: what the tool is, the commands, the exit statuses.
  static func overview() -> [String] {
    var lines = [
      "stoic \(StoicVersion.current): look into, search, check and repair Stoic stores "
        + "(journals, outboxes, settings files, telemetry spools).",
      "",
      "usage: stoic <command> [options] [arguments]",
      "",
      "commands:",
    ]
    var table = TextTable([("", .left), ("", .left)])
    let specs =
      StoicCommandLine.commands.map { $0.spec } + [
        StoicCommandLine.helpSpec, StoicCommandLine.versionSpec,
      ]
    for spec in specs {
      let arguments = spec.arguments.map { $0.optional ? "[\($0.name)]" : $0.name }
      table.add([([spec.name] + arguments).joined(separator: " "), spec.summary])
    }
    lines += table.render(style: Style(enabled: false), indent: 2, width: 80).dropFirst()
    lines += ["", "exit status:"]
    lines += exitStatusLines()
    lines += [
      "",
      "Read-only commands (inspect, verify, query, tail) never write a store's data and never "
        + "take its lock.",
      "Colour only on a terminal, never with NO_COLOR set. Run 'stoic help COMMAND' for a "
        + "command's options.",
    ]
    return lines
  }

  /// `stoic help COMMAND`: usage, arguments, options, details.
  static func help(for spec: CommandSpec) -> [String] {
    var lines = usageLines(for: spec)
    lines.insert(contentsOf: [spec.summary, ""], at: 0)
    if !spec.details.isEmpty {
      lines.append("")
      lines += spec.details.split(separator: "\n", omittingEmptySubsequences: false).map(
        String.init)
    }
    return lines
  }

  /// `usage: stoic verify [options] PATH` and the arguments and options, one a line.
  static func usageLines(for spec: CommandSpec) -> [String] {
    var lines = ["usage: \(spec.usage)"]
    if !spec.arguments.isEmpty {
      var table = TextTable([("", .left), ("", .left)])
      for argument in spec.arguments { table.add([argument.name, argument.help]) }
      lines +=
        ["", "arguments:"]
        + table.render(style: Style(enabled: false), indent: 2, width: 80)
        .dropFirst()
    }
    if !spec.options.isEmpty {
      var table = TextTable([("", .left), ("", .left)])
      for option in spec.options {
        table.add([option.synopsis + (option.repeatable ? " …" : ""), option.help])
      }
      lines +=
        ["", "options:"]
        + table.render(style: Style(enabled: false), indent: 2, width: 80)
        .dropFirst()
    }
    return lines
  }

  private static func exitStatusLines() -> [String] {
    var table = TextTable([("", .right), ("", .left)])
    for (status, meaning) in exitStatuses { table.add([status.description, meaning]) }
    return Array(table.render(style: Style(enabled: false), indent: 2, width: 80).dropFirst())
  }
}
