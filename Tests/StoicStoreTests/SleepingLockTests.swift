import Foundation
import Testing

@testable import StoicStore

/// ``SleepingLock``: one holder at a time, also with many more threads than processors, the
/// lock is released when the body throws, and a waiter wakes at a change made to wake it.
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

  @Test(
    "a wait without a timeout returns once a change made with withLockWakingWaiters satisfies it")
  func waitWokenByChange() {
    let lock = SleepingLock(0)
    let returned = DispatchSemaphore(value: 0)
    let seen = SleepingLock(-1)
    Thread {
      // No timeout: nothing but the broadcast wakes this wait.
      let value = lock.wait { $0 >= 3 ? $0 : nil }
      seen.withLock { $0 = value ?? -2 }
      returned.signal()
    }.start()
    for _ in 0..<3 {
      usleep(20_000)
      lock.withLockWakingWaiters { $0 += 1 }
    }
    // Bounded, so a missing wake fails the test rather than hanging it.
    #expect(returned.wait(timeout: .now() + 30) == .success)
    #expect(seen.withLock { $0 } == 3)
  }

  @Test(
    "a wait whose predicate never holds returns nil after its timeout, and can change the value")
  func waitTimesOut() {
    let lock = SleepingLock(0)
    let started = ContinuousClock.now
    let result: Int? = lock.wait(timeout: .milliseconds(250)) { value in
      value += 1
      return nil
    }
    #expect(result == nil)
    #expect(ContinuousClock.now - started >= .milliseconds(250))
    // The predicate ran more than once (every slice), and its changes were kept.
    #expect(lock.withLock { $0 } >= 2)
  }
}
