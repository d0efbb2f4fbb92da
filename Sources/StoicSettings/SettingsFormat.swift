/// How a settings file is stored, and who may change it.
public enum SettingsFormat: Sendable, Hashable {
  /// Written only by the app (the default): the JSON sits inside AtomicFile's `STAF` checksum
  /// envelope, so a torn or bit-rotted file is recognised, and a load that migrated or repaired
  /// the document writes the result back at once.
  case appOwned
  /// Written by people as well: plain JSON, read with comments (JSON5) allowed. Nothing is
  /// written back on load: migrations and repairs apply in memory and are reported in
  /// ``SettingsStore/issues``. An ``SettingsStore/update(_:)`` rewrites the whole file as plain
  /// JSON, so comments and formatting in the file are lost (the file as it was stays as
  /// `<path>.previous` until the next update); an app offering hand editing should say so
  /// wherever it also changes the settings itself. Edits made to the file while a store has it
  /// open are not read until the next open, and the next update replaces them the same way.
  /// A file with a syntax error is quarantined like any unusable file (renamed to
  /// `<path>.corrupt-N`, with the parser's message in ``SettingsStore/issues``), so the person
  /// can fix it and put it back.
  case handEdited
}
