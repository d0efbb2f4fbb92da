internal import StoicForwarding
internal import StoicStore

/// Accepts connections on a listening socket and serves each on a thread of its own, up to
/// ``CollectorLimits/maxConnections`` at once (one more is answered 503 and closed).
///
/// The accept loop runs on its own thread and polls every 100 ms, so ``stop()`` takes effect
/// within that: no new connections, idle connections close, requests in progress finish
/// (connections still open after a grace period are shut down).
final class HTTPServer: Sendable {
  private struct State {
    var stopping = false
    var acceptRunning = false
    var connections: Set<Int32> = []
  }

  private let listener: Int32
  private let service: CollectorService
  private let state = SleepingLock(State())

  init(listener: Int32, service: CollectorService) {
    self.listener = listener
    self.service = service
  }

  /// Whether ``stop()`` was called.
  var isStopping: Bool { state.withLock { $0.stopping } }

  /// Starts the accept loop.
  ///
  /// - Throws: ``CollectorError/invalidOption(_:)`` if no thread could be started.
  func start() throws(CollectorError) {
    state.withLockWakingWaiters { $0.acceptRunning = true }
    guard PosixThread.detach({ [self] in acceptLoop() }) else {
      state.withLockWakingWaiters { $0.acceptRunning = false }
      throw .invalidOption("could not start the accept thread")
    }
  }

  private func acceptLoop() {
    defer {
      PosixSocket.close(listener)
      state.withLockWakingWaiters { $0.acceptRunning = false }
    }
    let maxConnections = service.options.limits.maxConnections
    while !isStopping {
      guard PosixSocket.waitReadable(listener, milliseconds: 100),
        let connection = PosixSocket.accept(listener)
      else { continue }
      PosixSocket.configure(connection, writeTimeout: service.options.limits.writeTimeout)
      service.archive.update { $0.connections += 1 }
      let admitted = state.withLockWakingWaiters { state -> Bool in
        guard !state.stopping, state.connections.count < maxConnections else { return false }
        state.connections.insert(connection)
        return true
      }
      guard admitted else {
        service.refused(503)
        PosixSocket.send(
          connection,
          HTTPResponse.text(503, "too many connections").serialized(close: true))
        PosixSocket.close(connection)
        continue
      }
      let started = PosixThread.detach { [self] in
        HTTPConnection(
          descriptor: connection, service: service, isStopping: { [self] in isStopping }
        ).run()
        state.withLockWakingWaiters { _ = $0.connections.remove(connection) }
        PosixSocket.close(connection)
      }
      if !started {
        state.withLockWakingWaiters { _ = $0.connections.remove(connection) }
        PosixSocket.close(connection)
      }
    }
  }

  /// Stops accepting, lets requests in progress finish (up to `grace`), then shuts down the
  /// connections left and waits for their threads. Blocks.
  func stop(grace: Duration = .seconds(5)) {
    state.withLockWakingWaiters { $0.stopping = true }
    let idle = { (state: inout State) -> Bool? in
      !state.acceptRunning && state.connections.isEmpty ? true : nil
    }
    if state.wait(timeout: grace, idle) == nil {
      state.withLockWakingWaiters { state in
        for connection in state.connections { PosixSocket.shutdownBoth(connection) }
      }
      _ = state.wait(timeout: .seconds(10), idle)
    }
  }
}
