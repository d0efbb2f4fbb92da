/// One segment of a journal as ``Journal/segments()`` lists it: where it starts, what state it
/// is in and how many bytes it holds on disk.
public struct JournalSegmentInfo: Sendable, Hashable {
  /// What a segment is doing.
  public enum State: Sendable, Hashable {
    /// The segment appends go to. ``JournalSegmentInfo/bytes`` counts its frames, not the
    /// zeros its mapping reserved after them.
    case active
    /// A full segment replaced by the active one whose seal is still pending (at most one).
    /// ``JournalSegmentInfo/bytes`` counts its frames.
    case sealing
    /// A sealed segment of plain frames (`.log`), not compressed (yet).
    case sealed
    /// A sealed segment rewritten as compressed blocks (`.zst`).
    case compressed
  }

  /// The first sequence the segment may hold: its records are those from here to the next
  /// segment's `first` minus one (to the journal's ``Journal/lastSequence`` for the active one),
  /// less those at or below the ``Journal/lowWaterMark``.
  public var first: UInt64
  /// What the segment is doing.
  public var state: State
  /// The bytes it holds on disk: a sealed segment's file size, the end of the last frame for
  /// the active segment and for one whose seal is pending.
  public var bytes: UInt64

  /// Creates a description; every parameter is the property of the same name.
  public init(first: UInt64, state: State, bytes: UInt64) {
    self.first = first
    self.state = state
    self.bytes = bytes
  }

  /// Whether the segment is sealed (``State/sealed`` or ``State/compressed``): complete, and
  /// removable by ``Journal/dropThrough(_:)`` once every record in it is covered.
  public var isSealed: Bool { state == .sealed || state == .compressed }
}
