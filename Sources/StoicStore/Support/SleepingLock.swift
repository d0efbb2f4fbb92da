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
/// mutex its one element), so a lock costs one allocation where a class holding two pointers
/// cost three, and an access under the lock costs no dynamic exclusivity check (the lock is
/// what makes it exclusive). A copy of a `SleepingLock` is the same lock.
///
/// It is also the lock ThreadSanitizer understands: it intercepts `pthread_mutex_lock` and
/// `pthread_mutex_unlock`, whereas on Linux it does not see `Mutex`'s futex and reports every
/// access to a value behind a `Mutex` as a race (`scripts/tsan-mutex-false-positive` shows it
/// with ten lines). Every lock of the package is this one (the example collector's
/// `ConditionLock` adds a condition variable to the same kind of `pthread_mutex_t`), so a
/// ThreadSanitizer report is a real race.
package struct SleepingLock<Value>: @unchecked Sendable {
  private let storage: Storage

  /// The one allocation: the value as the header, the mutex as the only element.
  private final class Storage: ManagedBuffer<Value, pthread_mutex_t> {
    deinit {
      withUnsafeMutablePointerToElements { mutex in
        pthread_mutex_destroy(mutex)
        _ = mutex.deinitialize(count: 1)
      }
    }
  }

  /// A lock holding `value`.
  package init(_ value: Value) {
    let buffer = Storage.create(minimumCapacity: 1) { _ in value }
    storage = unsafeDowncast(buffer, to: Storage.self)
    storage.withUnsafeMutablePointerToElements { mutex in
      mutex.initialize(to: pthread_mutex_t())
      pthread_mutex_init(mutex, nil)
    }
  }

  /// Runs `body` with the value while holding the lock.
  ///
  /// - Throws: What `body` throws.
  package func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result)
    throws(Failure) -> Result
  {
    try storage.withUnsafeMutablePointers { value, mutex throws(Failure) -> Result in
      pthread_mutex_lock(mutex)
      defer { pthread_mutex_unlock(mutex) }
      return try body(&value.pointee)
    }
  }
}
