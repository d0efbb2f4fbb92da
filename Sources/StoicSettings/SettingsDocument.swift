/// A settings file parsed into its format version and its entries (every key but the version
/// key).
struct SettingsDocument: Sendable, Hashable {
  /// The format version the document declares (or the schema assumes for it).
  var version: Int
  /// The document's keys and values, without the version key.
  var entries: [String: SettingsJSON]
}

/// Why a file cannot be used as a settings document at all.
struct SettingsDocumentProblem: Error, Sendable, Hashable {
  /// A sentence: "not JSON: …", "wrong shape: …".
  let message: String
}
