#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A value behind a `pthread_mutex_t` with a condition variable, for the collector's
/// threads: wait until the value satisfies a predicate, wake the waiters after a change.
final class ConditionLock<Value>: @unchecked Sendable {
  // @unchecked: the value is only touched with the mutex held.
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>
  private let condition: UnsafeMutablePointer<pthread_cond_t>
  private var value: Value

  init(_ value: Value) {
    self.value = value
    mutex = .allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(mutex, nil)
    condition = .allocate(capacity: 1)
    condition.initialize(to: pthread_cond_t())
    pthread_cond_init(condition, nil)
  }

  deinit {
    pthread_cond_destroy(condition)
    condition.deinitialize(count: 1)
    condition.deallocate()
    pthread_mutex_destroy(mutex)
    mutex.deinitialize(count: 1)
    mutex.deallocate()
  }

  /// Runs `body` with the value while holding the lock, then wakes every waiter.
  func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result)
    throws(Failure) -> Result
  {
    pthread_mutex_lock(mutex)
    defer {
      pthread_cond_broadcast(condition)
      pthread_mutex_unlock(mutex)
    }
    return try body(&value)
  }

  /// Calls `attempt` with the value under the lock until it returns a result, waiting for
  /// the next change between calls; `nil` if `timeout` passed first. Wakes every waiter after
  /// each call.
  func wait<Result>(timeout: Duration? = nil, _ attempt: (inout Value) -> Result?) -> Result? {
    pthread_mutex_lock(mutex)
    defer {
      pthread_cond_broadcast(condition)
      pthread_mutex_unlock(mutex)
    }
    let deadline = timeout.map { ContinuousClock.now + $0 }
    while true {
      if let result = attempt(&value) { return result }
      guard let deadline else {
        pthread_cond_wait(condition, mutex)
        continue
      }
      let left = ContinuousClock.now.duration(to: deadline)
      if left <= .zero { return nil }
      // Wait in slices of at most 100 ms against the monotonic clock above, so the wait does
      // not depend on which clock the condition variable uses.
      var now = timespec()
      clock_gettime(CLOCK_REALTIME, &now)
      let slice = min(left, .milliseconds(100))
      let nanoseconds = Int(now.tv_nsec) + Int(slice.components.attoseconds / 1_000_000_000)
      var until = timespec(
        tv_sec: now.tv_sec + Int(slice.components.seconds) + nanoseconds / 1_000_000_000,
        tv_nsec: nanoseconds % 1_000_000_000)
      pthread_cond_timedwait(condition, mutex, &until)
    }
  }
}
