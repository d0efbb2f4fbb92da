/// The rules a journal's segments must satisfy, written down once. Open applies them to every
/// segment in order, `.log` and `.zst` alike, at every open; so whatever one open accepts, the
/// next accepts too, and a record acknowledged after an open is never removed by the next one.
///
/// What the journal itself writes always satisfies the layout rules:
///
/// 1. **In order, one file per first sequence.** Segments are named by their first sequence;
///    a `.log` and a `.zst` naming the same one are the two copies of an interrupted
///    compression and are reduced to one before anything else (cases @K–@M, in
///    `JournalOpener`). Sorted by name, the segments are sorted by sequence.
/// 2. **Contiguous.** The first segment starts at or below the low-water mark + 1 (records at
///    or below the mark are dropped), and each next one starts right after the last record of
///    the one before: a segment's records lie in `[first, next first)`, and none is missing.
///    A segment holding no record ends at `first - 1`.
/// 3. **No sequence above ``JournalFrame/maximumSequence``**: names above it are no segment's,
///    frames and trailers above it are invalid, and ``Journal/append(_:durable:)`` refuses the
///    record that would need one.
///
/// Where a directory breaks a rule, ``decide(_:)`` says what open does, by the case the
/// segment is in, as the recovery table of TigerBeetle's journal does: every situation
/// matches exactly one labelled case, and each case has one decision. Without
/// ``JournalOptions/salvage``, anything that would hide or lose a record is refused with
/// ``StoreError/Code/corrupt``; with it, a file that breaks a rule is set aside whole (renamed
/// to `<name>.corrupt-0`, never deleted), and records that no file holds any more are accepted
/// as missing and reported.
///
/// The one repair made without salvage is the torn seal (@F): the segment before the active
/// one ends early because power was lost before its seal, which every sync of the active
/// segment makes first; so nothing in the active segment can have been durable (no sync
/// marker in it says otherwise), and it is removed.
enum JournalSegmentRules {
  /// Where a segment starts, relative to what comes before it.
  enum Placement: Equatable, CustomStringConvertible {
    /// Right after the previous segment's last record (or, for the first segment, at or below
    /// the low-water mark + 1).
    case contiguous
    /// At or below the previous segment's last record, `previousLast`: two files claim the
    /// same sequences.
    case overlapping(previousLast: UInt64)
    /// After a run of sequences no segment holds.
    case missing(ClosedRange<UInt64>)

    var description: String {
      switch self {
      case .contiguous: "contiguous"
      case .overlapping(let last): "overlapping the records up to \(last)"
      case .missing(let range): "after missing records \(range.lowerBound)...\(range.upperBound)"
      }
    }
  }

  /// Where a segment starting at `first` lies, after a segment whose records end at
  /// `previousEnd` (its last record, or its first sequence - 1 if it holds none; `nil` for the
  /// first segment), with records at or below `lowWater` dropped.
  static func place(first: UInt64, after previousEnd: UInt64?, lowWater: UInt64) -> Placement {
    if let previousEnd, first <= previousEnd { return .overlapping(previousLast: previousEnd) }
    let expected = max(previousEnd ?? 0, lowWater) + 1
    return first > expected ? .missing(expected...(first - 1)) : .contiguous
  }

  /// What open knows when it places a segment.
  struct Situation: Equatable {
    var placement: Placement
    /// No segment comes before it.
    var isFirst: Bool
    /// It is the active segment, and the segment before it is a `.log` whose seal may not have
    /// been made (the one a roll replaced).
    var followsUnsealed: Bool
    /// It holds a valid sync marker: a sync of it returned, after the seal of the one before.
    /// Asked only when the two other columns of the torn-seal cases say it matters.
    var holdsMarker: Bool
    /// ``JournalOptions/salvage`` is on.
    var salvage: Bool
  }

  /// What open does with the segment.
  enum Decision: Equatable {
    /// Keep it.
    case accept
    /// Refuse to open, with ``StoreError/Code/corrupt`` naming the segment.
    case refuse
    /// Set the segment aside whole (`<name>.corrupt-0`), and go on without it.
    case quarantine
    /// Keep it, and report the records before it as missing.
    case acceptMissing
    /// Keep it, and raise the low-water mark to just below it (the checkpoint is rewritten,
    /// its snapshot kept): the missing records come before every other, so no later open
    /// needs salvage to accept the journal.
    case raiseLowWater
    /// Remove the active segment: nothing in it was durable. The one before it becomes the
    /// active segment.
    case removeActive
  }

  /// One row of the table: a label, a pattern (`nil` matches either value) and a decision.
  struct Case {
    var label: String
    var placement: PlacementKind
    var isFirst: Bool?
    var followsUnsealed: Bool?
    var holdsMarker: Bool?
    var salvage: Bool?
    var decision: Decision

    func matches(_ situation: Situation) -> Bool {
      func agrees(_ pattern: Bool?, _ value: Bool) -> Bool { pattern.map { $0 == value } ?? true }
      return placement == PlacementKind(situation.placement)
        && agrees(isFirst, situation.isFirst)
        && agrees(followsUnsealed, situation.followsUnsealed)
        && agrees(holdsMarker, situation.holdsMarker)
        && agrees(salvage, situation.salvage)
    }
  }

  /// ``Placement`` without its values, for the table.
  enum PlacementKind: Equatable {
    case contiguous, overlapping, missing

    init(_ placement: Placement) {
      switch placement {
      case .contiguous: self = .contiguous
      case .overlapping: self = .overlapping
      case .missing: self = .missing
      }
    }
  }

  /// The recovery cases.
  ///
  /// - @A: The segment starts where it should: accepted. This is the usual case.
  /// - @B, @C: It overlaps the records of the one before. A reader that skips to a sequence
  ///   trusts that a segment holds nothing at or beyond the next one's first, and compression
  ///   would make of it a `.zst` the next open refuses: refused, or with salvage the later file
  ///   (this one) is set aside.
  /// - @D, @E: The first segment starts above the low-water mark + 1: the records between were
  ///   lost with the segments that held them (a drop removes segments only after the checkpoint
  ///   covering them is durable). Refused, or with salvage the low-water mark is raised to just
  ///   below it, so the journal is whole again.
  /// - @F: The active segment follows a gap after the segment a roll replaced, and holds no
  ///   sync marker: power was lost before that segment's seal, and nothing in the active one
  ///   can have been durable (every sync of it makes the seal first). It is removed, and the
  ///   one before becomes the active segment again. No salvage is needed: nothing durable is
  ///   lost.
  /// - @G, @H: The same, but the active segment holds a sync marker: a sync of it returned, so
  ///   the seal before it had been made, and the records between are lost. Refused, or with
  ///   salvage the segment before is checked as a sealed one (its damaged bytes set aside)
  ///   and the active segment placed again.
  /// - @I, @J: A gap between two segments otherwise (after a sealed or compressed segment):
  ///   records that had been durable are lost. Refused, or with salvage accepted and reported
  ///   at every open (no file is left to set aside). A `.log` so accepted is given a durable
  ///   final marker when it is placed (`JournalOpener.markAfterMissing`), so that no later
  ///   open that finds it last takes it for the segment after a torn seal (@F).
  static let cases: [Case] = [
    // Legend:
    //
    //   place  where the segment starts: = contiguous, < overlapping, > after missing records
    //   1st    no segment comes before it
    //   uns    it is the active segment and follows a `.log` whose seal may not have been made
    //   mrk    it holds a valid sync marker
    //   slv    salvage is on
    //
    // Each row: label, place, 1st, uns, mrk, slv (nil matches either value), decision.
    Case(label: "@A", .contiguous, nil, nil, nil, nil, .accept),
    Case(label: "@B", .overlapping, nil, nil, nil, false, .refuse),
    Case(label: "@C", .overlapping, nil, nil, nil, true, .quarantine),
    Case(label: "@D", .missing, true, nil, nil, false, .refuse),
    Case(label: "@E", .missing, true, nil, nil, true, .raiseLowWater),
    Case(label: "@F", .missing, false, true, false, nil, .removeActive),
    Case(label: "@G", .missing, false, true, true, false, .refuse),
    Case(label: "@H", .missing, false, true, true, true, .acceptMissing),
    Case(label: "@I", .missing, false, false, nil, false, .refuse),
    Case(label: "@J", .missing, false, false, nil, true, .acceptMissing),
  ]

  /// The one case `situation` is in.
  static func decide(_ situation: Situation) -> Case {
    assert(
      !(situation.isFirst && situation.followsUnsealed),
      "the first segment follows no segment")
    // Exactly one case matches (counted in debug builds; an open decides once a segment, so
    // a release build takes the first match without building the list of them).
    assert(
      cases.count { $0.matches(situation) } == 1,
      "\(cases.count { $0.matches(situation) }) recovery cases match \(situation)")
    // The table covers every situation (checked above in debug builds, and by a test over all
    // of them); refusing is the safe answer should it ever not.
    return cases.first { $0.matches(situation) }
      ?? Case(label: "?", .contiguous, nil, nil, nil, nil, .refuse)
  }
}

extension JournalSegmentRules.Case {
  /// A row of the table, in the order of its columns.
  init(
    label: String, _ placement: JournalSegmentRules.PlacementKind, _ isFirst: Bool?,
    _ followsUnsealed: Bool?, _ holdsMarker: Bool?, _ salvage: Bool?,
    _ decision: JournalSegmentRules.Decision
  ) {
    self.init(
      label: label, placement: placement, isFirst: isFirst, followsUnsealed: followsUnsealed,
      holdsMarker: holdsMarker, salvage: salvage, decision: decision)
  }
}
