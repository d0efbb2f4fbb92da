import StoicStore
import Synchronization

/// The journal a spool's appends write into, found with one atomic load: no lock, no retain.
///
/// An append used to take the spool's lock to read its journal and retain it for the call; the
/// journal's background jobs hold it weakly, which gives it a side table, and every retain and
/// release of such an object takes the runtime's slow path (about 125 instructions of the
/// 4,000 a log call cost). Here the journal is held unretained, and its lifetime is the spool's
/// business:
///
/// - The spool keeps every journal it points appends at (``RecordSpool/State/journal``, then
///   ``RecordSpool/State/retired`` once replaced by a recovery or closed) until no append can
///   hold it.
/// - An append counts itself in (``inFlight``) before it loads the pointer and out once it is
///   done with the journal. A journal replaced before a moment at which no append is counted in
///   (``isIdle``) is held by none: an append counted in after that moment loads the new pointer,
///   since the replacement's store comes before the count's load in the one order of
///   sequentially consistent operations.
///
/// So a retired journal is released only when ``isIdle`` is true after its replacement
/// (``RecordSpool/releaseRetiredJournals()``); until then it stays held, closed.
struct SpoolAppendJournal: ~Copyable, Sendable {
  /// The journal, unretained, or `nil` once the spool closed.
  private let target = Atomic<Unmanaged<Journal>?>(nil)
  /// Appends between their count in and their count out.
  private let inFlight = Atomic<Int>(0)

  /// Points appends at `journal` (`nil`: none, the spool closed). The caller holds `journal`
  /// (and the one it replaces) until ``isIdle`` after this call.
  func point(at journal: Journal?) {
    target.store(journal.map { Unmanaged.passUnretained($0) }, ordering: .sequentiallyConsistent)
  }

  /// Whether no append is counted in: every journal replaced before this call returned is held
  /// by no append.
  var isIdle: Bool { inFlight.load(ordering: .sequentiallyConsistent) == 0 }

  /// Whether appends are pointed at `journal`.
  func isCurrent(_ journal: Journal) -> Bool {
    target.load(ordering: .relaxed)?.toOpaque() == Unmanaged.passUnretained(journal).toOpaque()
  }

  /// Calls `body` with the journal appends are pointed at, held for the call without a retain,
  /// or returns `nil` when there is none.
  @inline(__always)
  func withJournal<Result>(_ body: (Journal) -> Result) -> Result? {
    inFlight.wrappingAdd(1, ordering: .sequentiallyConsistent)
    defer { inFlight.wrappingSubtract(1, ordering: .releasing) }
    guard let journal = target.load(ordering: .sequentiallyConsistent) else { return nil }
    return journal._withUnsafeGuaranteedRef(body)
  }
}
