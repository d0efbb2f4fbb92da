/// The kinds of store the tool reads. Each names itself in `--as KIND` and in the `kind` field
/// of `--json` output.
public enum StoreKind: String, Sendable, Hashable, CaseIterable {
  /// A `Journal`'s directory.
  case journal
  /// An `Outbox`'s directory (a journal of outbox records).
  case outbox
  /// An `AtomicFile` (a settings file, or any small file kept in the `STAF` envelope).
  case atomicFile = "atomic-file"
  /// A telemetry spool's directory (`spool.id`, `spool.lock`, `drops`, a log journal in
  /// `logs/`, metrics in `metrics/`).
  case spool
  /// The example collector's `--data` directory (a journal of collector entries: stored
  /// batches, duplicates answered from them, key conflicts).
  case collector

  /// The kind named `text` in `--as` (`settings` and `atomic` are taken for `atomic-file`).
  public init?(argument text: String) {
    switch text {
    case "settings", "atomic": self = .atomicFile
    default: self.init(rawValue: text)
    }
  }

  /// Whether the store is a directory (rather than a file).
  public var isDirectory: Bool { self != .atomicFile }
}
