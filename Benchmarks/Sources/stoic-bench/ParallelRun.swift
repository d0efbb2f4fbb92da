import BenchKit
import Dispatch
import Foundation
import Synchronization

/// Runs the same body on several threads at once and times them together.
enum ParallelRun {
  /// Starts `threads` threads, each calling `body(thread)`, lets them go together, and returns
  /// the wall time until the last one finished. Rethrows the first error any thread hit.
  static func seconds(threads: Int, _ body: @escaping @Sendable (Int) throws -> Void) throws
    -> Double
  {
    let ready = DispatchSemaphore(value: 0)
    let go = DispatchSemaphore(value: 0)
    let done = DispatchSemaphore(value: 0)
    let failures = Mutex<[String]>([])
    for thread in 0..<threads {
      let worker = Thread {
        ready.signal()
        go.wait()
        do {
          try body(thread)
        } catch {
          failures.withLock { $0.append(String(describing: error)) }
        }
        done.signal()
      }
      worker.start()
    }
    for _ in 0..<threads { ready.wait() }
    let start = MonotonicClock.now()
    for _ in 0..<threads { go.signal() }
    for _ in 0..<threads { done.wait() }
    let elapsed = MonotonicClock.seconds(since: start)
    if let failure = failures.withLock({ $0.first }) { throw BenchError(failure) }
    return elapsed
  }
}
