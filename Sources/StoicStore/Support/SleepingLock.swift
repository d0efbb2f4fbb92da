#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A value behind a `pthread_mutex_t`: a thread that finds the lock taken sleeps in the kernel
/// at once, and the one woken at an unlock competes with new arrivals for it.
///
/// `Synchronization.Mutex` on Linux spins up to a thousand times before it blocks, and hands
/// the lock over to the thread the kernel wakes (a priority-inheriting futex). With more
/// threads than processors, that is what a journal's group commit meets (many appenders
/// waking at the end of one sync, each taking the lock two or three times): the spinners burn
/// the processors the holder and the woken thread need, and every handover waits for a
/// context switch. This lock does neither.
///
/// The lock and the value live in one allocation (a `ManagedBuffer`: the value its header, the
/// mutex and a condition variable its one element), so a lock costs one allocation where a
/// class holding two pointers cost three, and an access under the lock costs no dynamic
/// exclusivity check (the lock is what makes it exclusive). A copy of a `SleepingLock` is the
/// same lock.
///
/// A thread can also wait under it until the value satisfies a predicate
/// (``wait(timeout:_:)``), woken by a change made with ``withLockWakingWaiters(_:)``; a plain
/// ``withLock(_:)`` wakes nobody and costs nothing for the condition variable.
///
/// It is also the lock ThreadSanitizer understands: it intercepts `pthread_mutex_lock`,
/// `pthread_mutex_unlock` and the condition variable's calls, whereas on Linux it does not see
/// `Mutex`'s futex and reports every access to a value behind a `Mutex` as a race
/// (`scripts/tsan-mutex-false-positive` shows it with ten lines). Every lock of the package is
/// this one, so a ThreadSanitizer report is a real race.
package struct SleepingLock<Value>: @unchecked Sendable {
  private let storage: Storage

  /// The lock's two pthread objects, in the allocation's one element.
  private struct Primitives {
    var mutex = pthread_mutex_t()
    var condition = pthread_cond_t()
  }

  /// The one allocation: the value as the header, the mutex and condition as the only element.
  private final class Storage: ManagedBuffer<Value, Primitives> {
    deinit {
      withUnsafeMutablePointerToElements { primitives in
        pthread_cond_destroy(&primitives.pointee.condition)
        pthread_mutex_destroy(&primitives.pointee.mutex)
        _ = primitives.deinitialize(count: 1)
      }
    }
  }

  /// A lock holding `value`.
  package init(_ value: Value) {
    let buffer = Storage.create(minimumCapacity: 1) { _ in value }
    storage = unsafeDowncast(buffer, to: Storage.self)
    storage.withUnsafeMutablePointerToElements { primitives in
      primitives.initialize(to: Primitives())
      pthread_mutex_init(&primitives.pointee.mutex, nil)
      pthread_cond_init(&primitives.pointee.condition, nil)
    }
  }

  /// Runs `body` with the value while holding the lock.
  ///
  /// - Throws: What `body` throws.
  package func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result)
    throws(Failure) -> Result
  {
    try storage.withUnsafeMutablePointers { value, primitives throws(Failure) -> Result in
      pthread_mutex_lock(&primitives.pointee.mutex)
      defer { pthread_mutex_unlock(&primitives.pointee.mutex) }
      return try body(&value.pointee)
    }
  }

  /// Takes the lock and gives the value's address, for an accessor that yields the value in
  /// place (a `_modify`, which a closure cannot do); ``unlock()`` releases the lock. The
  /// address is valid while this lock (any copy of it) is alive; between the two calls the
  /// caller must not take this lock again (it is not recursive) and must not make a system
  /// call.
  package func lock() -> UnsafeMutablePointer<Value> {
    storage.withUnsafeMutablePointers { value, primitives in
      pthread_mutex_lock(&primitives.pointee.mutex)
      return value
    }
  }

  /// Releases the lock taken by ``lock()``.
  package func unlock() {
    storage.withUnsafeMutablePointerToElements { primitives in
      _ = pthread_mutex_unlock(&primitives.pointee.mutex)
    }
  }

  /// Runs `body` with the value while holding the lock, then wakes every thread waiting in
  /// ``wait(timeout:_:)``, so that each tries its predicate again.
  ///
  /// - Throws: What `body` throws.
  package func withLockWakingWaiters<Result, Failure: Error>(
    _ body: (inout Value) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    try storage.withUnsafeMutablePointers { value, primitives throws(Failure) -> Result in
      pthread_mutex_lock(&primitives.pointee.mutex)
      defer {
        pthread_cond_broadcast(&primitives.pointee.condition)
        pthread_mutex_unlock(&primitives.pointee.mutex)
      }
      return try body(&value.pointee)
    }
  }

  /// Calls `attempt` with the value under the lock until it returns a result, sleeping between
  /// calls until a change made with ``withLockWakingWaiters(_:)`` (or another wait) wakes it.
  /// Wakes every other waiter when it returns, since `attempt` may have changed the value.
  ///
  /// The clock is the monotonic one: a wait sleeps in slices of at most 100 ms and measures
  /// what is left against `ContinuousClock`, whatever clock the condition variable keeps.
  ///
  /// - Parameters:
  ///   - timeout: How long to wait at most; `nil` waits as long as it takes.
  ///   - attempt: Gives the result, or `nil` to wait for the next change.
  /// - Returns: What `attempt` gave, or `nil` if `timeout` passed first.
  package func wait<Result>(timeout: Duration? = nil, _ attempt: (inout Value) -> Result?)
    -> Result?
  {
    storage.withUnsafeMutablePointers { value, primitives -> Result? in
      pthread_mutex_lock(&primitives.pointee.mutex)
      defer {
        pthread_cond_broadcast(&primitives.pointee.condition)
        pthread_mutex_unlock(&primitives.pointee.mutex)
      }
      let deadline = timeout.map { ContinuousClock.now + $0 }
      while true {
        if let result = attempt(&value.pointee) { return result }
        guard let deadline else {
          pthread_cond_wait(&primitives.pointee.condition, &primitives.pointee.mutex)
          continue
        }
        let left = ContinuousClock.now.duration(to: deadline)
        if left <= .zero { return nil }
        var until = Self.realtime(after: min(left, .milliseconds(100)))
        pthread_cond_timedwait(&primitives.pointee.condition, &primitives.pointee.mutex, &until)
      }
    }
  }

  /// The realtime clock's reading `slice` from now (under a second), as the condition
  /// variable's timed wait takes it.
  private static func realtime(after slice: Duration) -> timespec {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    let nanoseconds = Int(now.tv_nsec) + Int(slice.components.attoseconds / 1_000_000_000)
    return timespec(
      tv_sec: now.tv_sec + Int(slice.components.seconds) + nanoseconds / 1_000_000_000,
      tv_nsec: nanoseconds % 1_000_000_000)
  }
}
