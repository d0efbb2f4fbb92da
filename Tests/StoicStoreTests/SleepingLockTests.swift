import Foundation
import Testing

@testable import StoicStore

/// ``SleepingLock``: one holder at a time, also with many more threads than processors, and
/// the lock is released when the body throws.
@Suite("SleepingLock")
struct SleepingLockTests {
  @Test("32 threads incrementing through the lock lose no increment")
  func mutualExclusion() {
    // A counter incremented in two steps (read, then write after a yield): without mutual
    // exclusion, increments would be lost.
    let lock = SleepingLock(0)
    let group = DispatchGroup()
    for _ in 0..<32 {
      group.enter()
      Thread {
        for _ in 0..<500 {
          lock.withLock { value in
            let read = value
            if read % 7 == 0 { sched_yield() }
            value = read + 1
          }
        }
        group.leave()
      }.start()
    }
    group.wait()
    #expect(lock.withLock { $0 } == 32 * 500)
  }

  @Test("a throwing body releases the lock and its typed error reaches the caller")
  func throwingBodyReleases() {
    let lock = SleepingLock([Int]())
    let error = #expect(throws: StoreError.self) {
      try lock.withLock { (values) throws(StoreError) in
        values.append(1)
        throw StoreError(.invalidArgument, "refused")
      }
    }
    #expect(error?.code == .invalidArgument)
    // Taken again at once: a lock left held would hang here.
    #expect(lock.withLock { $0 } == [1])
  }
}
