/// One kind of event a layer can raise: its registered name, level, meaning and fields.
///
/// A layer declares each of its events once, as a static constant of its event namespace
/// (``StoreEvents`` for the storage core; `SettingsEvents`, `SpoolEvents`, … above it), and
/// lists them in its ``EventCatalog``. Events are raised from the definition
/// (``EventSink/emit(_:_:)``), so the name, the level and the declared fields come from one
/// place and no call site repeats them.
///
/// ```swift
/// extension StoreEvents {
///   static let example = EventDefinition(
///     "store.example", level: .info, summary: "What happened, in one sentence.",
///     fields: ["path"])
/// }
/// events.emit(StoreEvents.example, [("path", path)])
/// ```
public struct EventDefinition: Sendable, Hashable, CustomStringConvertible {
  /// The registered name, such as `store.journal_truncated`: the layer's prefix, a dot, then
  /// lower-case words joined by `_`.
  public let name: String
  /// The level every event of this kind is raised at.
  public let level: StoreEvent.Level
  /// What it means, in a sentence or two.
  public let summary: String
  /// The names of the fields it carries, in the order they are given.
  public let fields: [String]
  /// What a person should do or know, in a few words, where the kind calls for one ("the
  /// receiver refused the credentials: check OTEL_EXPORTER_OTLP_HEADERS"): the diagnostic
  /// channel (``DiagnosticChannel``) leads its line with it.
  public let hint: String?

  /// Declares an event.
  ///
  /// - Parameters:
  ///   - name: The registered name (`<layer>.<words>`).
  ///   - level: The level it is raised at.
  ///   - summary: What it means.
  ///   - fields: The names of the fields it carries.
  ///   - hint: What a person should do or know, for the diagnostic channel's line.
  public init(
    _ name: String, level: StoreEvent.Level, summary: String, fields: [String] = [],
    hint: String? = nil
  ) {
    self.name = name
    self.level = level
    self.summary = summary
    self.fields = fields
    self.hint = hint
  }

  /// The layer prefix of ``name``: the part before the first dot (`store`, `settings`, …).
  public var layer: Substring {
    name.prefix { $0 != "." }
  }

  /// `name (level): summary`.
  public var description: String {
    "\(name) (\(level)): \(summary)"
  }
}
