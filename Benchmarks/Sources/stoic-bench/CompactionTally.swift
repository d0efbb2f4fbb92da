import StoicStore
import Synchronization

/// Sums the journal's `store.journal_compacted` events: segments, bytes in and bytes out.
final class CompactionTally: Sendable {
  private struct Totals {
    var segments = 0
    var inputBytes = 0
    var outputBytes = 0
  }

  private let totals = Mutex(Totals())

  /// A sink that feeds this tally.
  var sink: EventSink {
    EventSink { [self] event in
      guard event.definition == StoreEvents.journalCompacted else { return }
      let input = Int(event["inputBytes"] ?? "") ?? 0
      let output = Int(event["outputBytes"] ?? "") ?? 0
      totals.withLock {
        $0.segments += 1
        $0.inputBytes += input
        $0.outputBytes += output
      }
    }
  }

  var segments: Int { totals.withLock { $0.segments } }
  var inputBytes: Int { totals.withLock { $0.inputBytes } }
  var outputBytes: Int { totals.withLock { $0.outputBytes } }
}
