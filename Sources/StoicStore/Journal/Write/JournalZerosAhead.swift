/// When a journal's appends write zeros ahead of themselves
/// (``Journal/writeZeros(through:within:core:)``).
///
/// Zeros written ahead in one chunk put the chunk in the page cache as one folio, which one
/// page fault maps whole: appends through the mapping then fault once a chunk instead of once
/// a page. The price comes with each sync: the folio that holds the end is written back whole
/// (and counted again when the next append dirties it), and a chunk ahead is written as zeros
/// before it holds a frame. While appends come fast, the faults saved are worth far more than
/// a chunk per sync. At a steady moderate rate (a sync every 100 ms over a few hundred KiB, or
/// a sync per record) the chunk is most of what a sync writes, and the faults it would save
/// cost a fraction of a percent of a core. So the journal writes zeros ahead while the appends
/// between its last two syncs came at ``JournalOptions/zeroAheadMinimumRate`` bytes a second
/// or faster, and leaves the tail's pages to their faults otherwise; until its first two syncs
/// it writes them. While they are off, an append that has gone a chunk past the last look
/// asks again, with the appends since the last sync: a burst after a quiet spell turns them
/// on within a chunk, not at the next sync. BENCHMARKS.md ("Bytes per record") has the
/// measures.
enum JournalZerosAhead {
  /// Whether `appended` bytes over `nanoseconds` (since the last sync ended) came at
  /// `minimumRate` bytes a second or faster; a `minimumRate` of 0 always does.
  static func payOff(appended: UInt64, nanoseconds: UInt64, minimumRate: UInt64) -> Bool {
    guard minimumRate > 0 else { return true }
    guard nanoseconds > 0 else { return true }
    return Double(appended) * 1e9 >= Double(minimumRate) * Double(nanoseconds)
  }
}
