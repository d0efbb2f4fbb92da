import StoicTelemetry

/// A level as the command line takes it: swift-log's names (`trace` … `critical`) and the
/// short names people type from syslog and journalctl (`warn`, `err`, `crit`), in any case.
enum LevelArgument {
  /// The short names and the level each stands for.
  static let shortNames: [String: LogLevel] = [
    "warn": .warning, "err": .error, "crit": .critical,
  ]

  /// The level `text` names, or `nil`.
  static func level(_ text: String) -> LogLevel? {
    let name = text.lowercased()
    return LogLevel(name: name) ?? shortNames[name]
  }
}
