#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Starts a detached POSIX thread: sockets block, so they are served on threads of their own,
/// never on Swift's cooperative pool.
package enum PosixThread {
  private final class Box {
    let body: @Sendable () -> Void
    init(_ body: @escaping @Sendable () -> Void) { self.body = body }
  }

  /// Runs `body` on a new detached thread; `false` if the thread could not be created.
  @discardableResult
  package static func detach(_ body: @escaping @Sendable () -> Void) -> Bool {
    let box = Unmanaged.passRetained(Box(body)).toOpaque()
    #if canImport(Glibc)
      var thread = pthread_t()
    #else
      var thread: pthread_t? = nil
    #endif
    let created = pthread_create(
      &thread, nil,
      { argument in
        guard let argument else { return nil }
        Unmanaged<Box>.fromOpaque(argument).takeRetainedValue().body()
        return nil
      }, box)
    guard created == 0 else {
      Unmanaged<Box>.fromOpaque(box).release()
      return false
    }
    pthread_detach(thread)
    return true
  }
}
