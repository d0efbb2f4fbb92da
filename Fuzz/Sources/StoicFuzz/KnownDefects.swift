#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The defects issue #11 lists (found by an earlier fuzzing campaign, being fixed on their own),
/// which every target would otherwise find again at once.
///
/// By default the targets step around them, so that a run reports only what is new; with
/// `STOIC_FUZZ_KNOWN_DEFECTS=1` they check those places too and find the known defects (the
/// way to confirm their fixes). Once the fixes land, each guard below goes, and the checks it
/// gates always run.
enum KnownDefects {
  /// The environment variable that turns the guards off.
  static let variable = "STOIC_FUZZ_KNOWN_DEFECTS"

  /// Whether the checks of the known defects run (`STOIC_FUZZ_KNOWN_DEFECTS=1`).
  static let checked: Bool = getenv(variable).map { String(cString: $0) == "1" } ?? false

  /// #11 items 1–4: open accepts directories (a new active segment named like an existing
  /// one, gaps, overlaps, sequences past the maximum) that a reopen, or an append and a
  /// reopen, then lose records of or refuse. Gates the journal targets' "whatever an open
  /// accepts, a later open accepts too, with every record" check (see
  /// ``JournalReopenCheck``).
  static var journalReopen: Bool { checked }

  /// #11 items 5 and 6: Foundation's JSON5 scanner traps on invalid UTF-8 in an unquoted key,
  /// and a `//` comment ended by `\r` hides nesting from the depth pre-scan (a stack
  /// overflow). Both crash the process, so without the check such hand-edited inputs are not
  /// decoded at all.
  static func skipsHandEdited(_ bytes: [UInt8]) -> Bool {
    guard !checked else { return false }
    return String(validating: bytes, as: UTF8.self) == nil || bytes.contains(0x0D)
  }

  /// #11 item 7: decoding a snapshot puts entries without a creation time first, so the
  /// outbox's order changes across compaction. Gates comparing entry order after a snapshot
  /// round trip (without it, entries are compared as a set, by key).
  static var outboxSnapshotOrder: Bool { checked }
}
