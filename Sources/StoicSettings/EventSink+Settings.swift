import StoicStore

extension EventSink {
  /// Emits a registered `settings.*` event at the level the ``EventCatalog`` gives it.
  func emitSettings(_ name: String, _ fields: [(String, String)]) {
    emit(name, EventCatalog.entry(named: name)?.level ?? .warning, fields)
  }
}
