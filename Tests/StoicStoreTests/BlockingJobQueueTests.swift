import Dispatch
import Synchronization
import Testing

@testable import StoicStore

/// The package's one background mechanism: jobs in order on one thread, delayed jobs for
/// timers, and a push that never queues behind other work.
@Suite struct BlockingJobQueueTests {
  @Test func jobsRunInOrderOnTheQueuesOwnThreadStartedByTheFirstJob() {
    let queue = BlockingJobQueue()
    let order = Mutex<[Int]>([])
    let onQueue = Atomic<Int>(0)
    let done = DispatchSemaphore(value: 0)
    for value in 0..<100 {
      queue.push {
        order.withLock { $0.append(value) }
        if queue.isCurrentThread { onQueue.add(1, ordering: .relaxed) }
        if value == 99 { done.signal() }
      }
    }
    done.wait()
    #expect(order.withLock { $0 } == Array(0..<100))
    #expect(onQueue.load(ordering: .relaxed) == 100)
    #expect(!queue.isCurrentThread)
    queue.finish()
  }

  @Test func aDelayedJobWaitsForItsDelayWithoutHoldingUpTheOthers() {
    let queue = BlockingJobQueue()
    let order = Mutex<[String]>([])
    let done = DispatchSemaphore(value: 0)
    let start = ContinuousClock.now
    let ranAfter = Mutex<Duration?>(nil)
    queue.push(after: .milliseconds(200)) {
      ranAfter.withLock { $0 = ContinuousClock.now - start }
      order.withLock { $0.append("delayed") }
      done.signal()
    }
    queue.push { order.withLock { $0.append("now") } }
    done.wait()
    #expect(order.withLock { $0 } == ["now", "delayed"])
    #expect((ranAfter.withLock { $0 } ?? .zero) >= .milliseconds(200))
    queue.finish()
  }

  @Test func finishRunsTheDelayedJobsAtOnce() {
    let queue = BlockingJobQueue()
    let done = DispatchSemaphore(value: 0)
    queue.push(after: .seconds(3600)) { done.signal() }
    queue.finish()
    #expect(done.wait(timeout: .now() + .seconds(30)) == .success)
  }

  @Test func pushIfIdleRefusesWhileTheThreadIsBusyAndTakesTheJobWhenIdle() {
    let queue = BlockingJobQueue()
    let release = DispatchSemaphore(value: 0)
    let busy = DispatchSemaphore(value: 0)
    queue.push {
      busy.signal()
      release.wait()
    }
    busy.wait()
    #expect(!queue.pushIfIdle {})
    release.signal()
    // Idle once the job returns: a job pushed then starts at once.
    let ran = DispatchSemaphore(value: 0)
    var accepted = false
    for _ in 0..<1000 where !accepted {
      accepted = queue.pushIfIdle { ran.signal() }
      if !accepted { usleepMilliseconds(1) }
    }
    #expect(accepted)
    #expect(ran.wait(timeout: .now() + .seconds(30)) == .success)
    queue.finish()
  }

  private func usleepMilliseconds(_ milliseconds: Int) {
    _ = DispatchSemaphore(value: 0).wait(timeout: .now() + .milliseconds(milliseconds))
  }
}
