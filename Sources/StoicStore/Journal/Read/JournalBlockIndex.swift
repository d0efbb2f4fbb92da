/// Where the blocks of a journal's compressed segments start, learned while reading them, so
/// that a read from a sequence in the middle of a compressed segment starts at the block that
/// holds it instead of decompressing and checking every block before it.
///
/// A consumer that reads a backlog batch by batch (the forwarder reads a thousand records at a
/// time from a segment of tens of thousands) would otherwise decompress half a segment per
/// batch on average.
///
/// What is learned comes only from blocks that passed every check (their CRC, their structure,
/// their sequences following the ones before). A compressed segment never changes once
/// written and its name is never reused, but a read that starts from the index still checks
/// the block it starts at as every other; if anything about it does not match, the read starts
/// over from the segment's header (see ``Journal/forEachRecordBorrowing(from:_:)``). Bounded:
/// a few dozen bytes per block of 1 MiB, for at most ``maximumSegments`` segments.
final class JournalBlockIndex: Sendable {
  /// One block: where it starts and what comes before it.
  struct Entry: Sendable, Equatable {
    /// The block's offset in the segment file.
    let position: UInt64
    /// Its first sequence.
    let first: UInt64
    /// The last sequence before it in the segment (the segment's first − 1 for the first).
    let previousSequence: UInt64
    /// How many records the segment holds before it.
    let recordsBefore: UInt64
  }

  /// How many segments' blocks are kept; past that, everything learned is forgotten (and
  /// learned again by the next reads).
  static let maximumSegments = 1024

  private let state = SleepingLock<[String: [Entry]]>([:])

  /// The block of segment file `name` to start a read of `sequence` at: the last known block
  /// whose first sequence is at most `sequence`; `nil` when none is known past the first.
  func start(of name: String, for sequence: UInt64) -> Entry? {
    state.withLock { segments in
      guard let entries = segments[name] else { return nil }
      return entries.last(where: { $0.first <= sequence && $0.position > 0 })
    }
  }

  /// Adds the blocks a read of segment file `name` checked.
  func learn(_ name: String, _ entries: [Entry]) {
    guard !entries.isEmpty else { return }
    state.withLock { segments in
      if segments[name] == nil, segments.count >= Self.maximumSegments { segments = [:] }
      var known = segments[name] ?? []
      for entry in entries where !known.contains(where: { $0.position == entry.position }) {
        known.append(entry)
      }
      known.sort { $0.position < $1.position }
      segments[name] = known
    }
  }

  /// Forgets segment file `name` (a read starting from its index found something else).
  func forget(_ name: String) {
    state.withLock { _ = $0.removeValue(forKey: name) }
  }
}
