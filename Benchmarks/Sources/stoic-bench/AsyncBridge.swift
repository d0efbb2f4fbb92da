import BenchKit
import Dispatch
import Synchronization

/// Runs async work (the forwarder and the collector are async) from a scenario, which runs on
/// the main thread outside Swift's cooperative pool: the work runs in a detached task and the
/// main thread waits for its result.
enum AsyncBridge {
  /// Where the task leaves its result for the waiting thread.
  private final class Outcome<Value: Sendable>: Sendable {
    let result = Mutex<Result<Value, any Error>?>(nil)
    let done = DispatchSemaphore(value: 0)
  }

  /// The value `body` returns, or the error it throws.
  static func wait<Value: Sendable>(_ body: @escaping @Sendable () async throws -> Value)
    throws -> Value
  {
    let outcome = Outcome<Value>()
    Task.detached {
      let result: Result<Value, any Error>
      do { result = .success(try await body()) } catch { result = .failure(error) }
      outcome.result.withLock { $0 = result }
      outcome.done.signal()
    }
    outcome.done.wait()
    guard let result = outcome.result.withLock({ $0 }) else {
      throw BenchError("an async step ended without a result")
    }
    return try result.get()
  }
}
