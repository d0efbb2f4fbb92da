internal import StoicStore

/// An answer given once, to one waiter: by the work that produces it, or by a cancellation that
/// does not wait for that work. Whichever comes first wins; the other is ignored.
///
/// This is how a wait on work that may not observe its cancellation (a blocking socket on a
/// thread of its own, a transport given by the app) still ends the moment it is cancelled: the
/// work runs on to its own end (bounded by its own timeout), unobserved.
final class OneShotAnswer<Value: Sendable>: Sendable {
  private typealias Waiter = CheckedContinuation<Value, Never>
  private let state = SleepingLock<(waiter: Waiter?, early: Value?, given: Bool)>((nil, nil, false))

  /// Sets the continuation to resume; resumes it at once if the answer came first.
  func wait(_ waiter: CheckedContinuation<Value, Never>) {
    let early = state.withLock { state -> Value? in
      guard let early = state.early else {
        state.waiter = waiter
        return nil
      }
      state.early = nil
      return early
    }
    if let early { waiter.resume(returning: early) }
  }

  /// Gives the answer, unless one was given already.
  func give(_ value: Value) {
    let waiter = state.withLock { state -> Waiter? in
      guard !state.given else { return nil }
      state.given = true
      guard let waiter = state.waiter else {
        state.early = value
        return nil
      }
      state.waiter = nil
      return waiter
    }
    waiter?.resume(returning: value)
  }
}

/// Runs `operation` in a task of its own and returns its result; a cancelled caller returns at
/// once with `CancellationError` (the operation is told, and runs on to its own end).
func abandoningOnCancel<T: Sendable>(
  _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
  let answer = OneShotAnswer<Result<T, any Error>>()
  let work = Task {
    do {
      answer.give(.success(try await operation()))
    } catch {
      answer.give(.failure(error))
    }
  }
  let result = await withTaskCancellationHandler {
    await withCheckedContinuation { answer.wait($0) }
  } onCancel: {
    work.cancel()
    answer.give(.failure(CancellationError()))
  }
  return try result.get()
}
