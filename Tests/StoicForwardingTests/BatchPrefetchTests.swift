import Foundation
import StoicStore
import Synchronization
import Testing

@testable import StoicForwarding

/// The prefetch's preparing threads (``ForwarderOptions/preparers``): with two, consecutive
/// batches are prepared at once, each body still the one of its own range.
@Suite("Batch prefetch")
struct BatchPrefetchTests {
  /// How many preparations are running now, and the most that ever ran at once.
  final class Overlap: Sendable {
    private let counts = Mutex((inside: 0, most: 0))

    /// Counts a preparation in, waits up to `patience` for `others` more to be inside at the
    /// same time, and counts it out.
    func enter(waitingFor others: Int, patience: Duration) {
      counts.withLock {
        $0.inside += 1
        $0.most = max($0.most, $0.inside)
      }
      let clock = ContinuousClock()
      let deadline = clock.now + patience
      while counts.withLock({ $0.inside }) < others + 1, clock.now < deadline {
        usleep(1_000)
      }
      counts.withLock { $0.inside -= 1 }
    }

    var most: Int { counts.withLock { $0.most } }
  }

  /// A prefetch over batches `1…count` (batch `n` the range `n…n`, key `"b<n>"`) whose
  /// preparation waits for a second one to run beside it and gives the range's first sequence
  /// as its record count.
  static func prefetch(threads: Int, overlap: Overlap, count: Int) -> (
    BatchPrefetch, [(key: String, range: SpoolRange)]
  ) {
    let prefetch = BatchPrefetch(reader: BlockingExecutor(), threads: threads, depth: 4) { range in
      overlap.enter(waitingFor: 1, patience: .milliseconds(200))
      return BatchPrefetch.Prepared(
        body: .failure(ForwardingError(.tooLarge, "test")), records: Int(range.first),
        unreadable: 0)
    }
    let batches = (1...count).map {
      (key: "b\($0)", range: SpoolRange(stream: .logs, first: UInt64($0), last: UInt64($0)))
    }
    prefetch.plan(batches)
    return (prefetch, batches)
  }

  @Test(
    "batches are prepared as many at once as there are preparing threads, each body its own range's",
    arguments: [(count: 2, atOnce: 2), (count: 1, atOnce: 1)])
  func preparedAtOnce(threads: (count: Int, atOnce: Int)) async throws {
    let overlap = Overlap()
    let (prefetch, batches) = Self.prefetch(threads: threads.count, overlap: overlap, count: 6)
    for batch in batches {
      let prepared = try await prefetch.body(key: batch.key, range: batch.range)
      #expect(prepared.records == Int(batch.range.first))
    }
    #expect(overlap.most == threads.atOnce)
  }
}
