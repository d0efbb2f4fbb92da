#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A flag of the current thread (a POSIX thread-specific value): set while the thread is inside
/// some work, so that work reached again on the same thread can tell (an event raised while an
/// event is being written, maintenance requested from inside maintenance).
final class ThreadFlag: Sendable {
  private let key: pthread_key_t

  init() {
    var key = pthread_key_t()
    pthread_key_create(&key, nil)
    self.key = key
  }

  /// Whether the flag is set on the calling thread.
  var isSet: Bool { pthread_getspecific(key) != nil }

  /// Runs `body` with the flag set on the calling thread, then restores it.
  func whileSet<Result, Failure: Error>(_ body: () throws(Failure) -> Result)
    throws(Failure) -> Result
  {
    let previous = pthread_getspecific(key)
    pthread_setspecific(key, UnsafeRawPointer(bitPattern: 1))
    defer { pthread_setspecific(key, previous) }
    return try body()
  }

  /// Set on a thread while it writes one of a spool's own events.
  static let writingEvent = ThreadFlag()
  /// Set on a thread while it runs a spool's maintenance.
  static let maintaining = ThreadFlag()
}
