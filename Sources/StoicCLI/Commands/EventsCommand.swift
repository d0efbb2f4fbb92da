import StoicForwarding
import StoicSettings
public import StoicStore
import StoicTelemetry

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `stoic events [--json]`: the event catalog of every layer, with each event's level, meaning
/// and fields.
enum EventsCommand: StoicCommand {
  static let spec = CommandSpec(
    name: "events",
    summary: "List every event the layers can raise: name, level, fields and meaning.",
    options: [CommonOptions.json],
    details: """
      Events are what Stoic reports to an app's EventSink: a quarantined file, a cut torn
      tail, a parked outbox entry, a dropped record. Every name here is declared by its layer;
      nothing raises an event that is not in this list.

      exit status: 0 listed, 64 usage.
      """)

  @MainActor
  static func run(_ command: ParsedCommand, console: Console) async throws -> ExitStatus {
    let entries = StoicEventCatalog.all.entries
    if command.flag("json") {
      console.json(json(entries).rendered())
      return .success
    }
    var table = TextTable([
      ("EVENT", .left), ("LEVEL", .left), ("FIELDS", .left), ("MEANING", .left),
    ])
    for entry in entries {
      table.add([
        TextTable.Cell(entry.name, .cyan),
        TextTable.Cell(entry.level.description, paint(entry.level)),
        TextTable.Cell(entry.fields.joined(separator: ",")), TextTable.Cell(entry.summary),
      ])
    }
    let width = console.terminal.outputIsTerminal ? Terminal.columns(STDOUT_FILENO) : nil
    console.lines(table.render(style: console.style, width: width))
    return .success
  }

  /// `{"events": [{"name", "layer", "level", "fields", "summary"}, …]}`.
  static func json(_ entries: [EventDefinition]) -> JSONValue {
    .object([
      (
        "events",
        .array(
          entries.map { entry in
            .object([
              ("name", .string(entry.name)), ("layer", .string(String(entry.layer))),
              ("level", .string(entry.level.description)),
              ("fields", .array(entry.fields.map(JSONValue.string))),
              ("summary", .string(entry.summary)),
            ])
          })
      )
    ])
  }

  /// Red for errors, yellow for warnings.
  static func paint(_ level: StoreEvent.Level) -> Style.Paint? {
    switch level {
    case .error: .red
    case .warning: .yellow
    default: nil
    }
  }
}

/// Every event of every layer the tool knows, as `stoic events` lists them. A layer joins by
/// adding its catalog to ``layers``.
public enum StoicEventCatalog {
  /// Each layer's catalog, bottom up.
  public static let layers: [EventCatalog] = [
    StoreEvents.catalog,
    SettingsEvents.catalog,
    SpoolEvents.catalog,
    ForwardingEvents.catalog,
  ]

  /// The union of ``layers``.
  public static let all = EventCatalog(combining: layers)
}
