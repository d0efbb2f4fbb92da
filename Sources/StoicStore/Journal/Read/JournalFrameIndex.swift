/// Where records start in a journal's `.log` segments, learned while reading them, so that a
/// read from a sequence in the middle of a `.log` segment starts at a record it knows instead
/// of walking (and checking) every frame before it: what ``JournalBlockIndex`` is for
/// compressed segments.
///
/// A consumer that reads batch by batch (the forwarder reads a thousand records at a time, two
/// reads a batch, from an active segment of tens of thousands) would otherwise walk half a
/// segment per read on average: the cost of a batch grew with the segment, and a drain's with
/// its square.
///
/// What is learned comes only from reads: where the record after the last one a read handed out
/// starts (the read stopped there), or where a read reached the end of the segment. A `.log`
/// segment only grows at its end while it is active and never changes once sealed, and its name
/// is never reused; still, a read that starts from the index checks that the first record it
/// finds there is the one the index names (its frame's CRC, its sequence) before it hands out
/// anything, and starts over from the segment's first frame, which checks everything, if not
/// (see ``Journal/forEachRecordBorrowing(from:_:)``). Bounded: at most ``maximumEntries`` per
/// segment, for at most ``maximumSegments`` segments.
final class JournalFrameIndex: Sendable {
  /// One known record start.
  struct Entry: Sendable, Equatable {
    /// The offset of the record's frame in the segment file.
    let position: UInt64
    /// The record's sequence.
    let sequence: UInt64
    /// The sequence of the record before it in the segment (the segment's first − 1 for none).
    let previousSequence: UInt64
  }

  /// How many segments' entries are kept; past that, everything learned is forgotten (and
  /// learned again by the next reads).
  static let maximumSegments = 64
  /// How many entries one segment keeps; past that, the half nearest its start is forgotten
  /// (reads move forward).
  static let maximumEntries = 256

  private let state = SleepingLock<[String: [Entry]]>([:])

  /// Where to start a read of `sequence` in segment file `name`: the last known record start
  /// whose sequence is at most `sequence`, or `nil` when none is known past the first frame.
  func start(of name: String, for sequence: UInt64) -> Entry? {
    state.withLock { segments in
      guard let entries = segments[name] else { return nil }
      return entries.last(where: { $0.sequence <= sequence && $0.position > 0 })
    }
  }

  /// Adds a record start a read of segment file `name` found.
  func learn(_ name: String, _ entry: Entry) {
    guard entry.position > 0 else { return }
    state.withLock { segments in
      if segments[name] == nil, segments.count >= Self.maximumSegments { segments = [:] }
      var known = segments[name] ?? []
      guard !known.contains(where: { $0.position == entry.position }) else { return }
      let index = known.firstIndex { $0.position > entry.position } ?? known.endIndex
      known.insert(entry, at: index)
      if known.count > Self.maximumEntries { known.removeFirst(known.count / 2) }
      segments[name] = known
    }
  }

  /// Forgets segment file `name` (a read starting from its index found something else).
  func forget(_ name: String) {
    state.withLock { _ = $0.removeValue(forKey: name) }
  }
}
