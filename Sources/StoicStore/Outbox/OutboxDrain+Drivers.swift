extension OutboxDrain {
  /// How a send ended, as the async driver sees it.
  private enum Outcome: Sendable {
    case answered(DeliveryResponse)
    case cancelled
  }

  /// Runs the drain with an async delivery closure and the clock's sleep, on the caller's
  /// actor (the outbox's), so the engine is only ever touched there. Up to ``window`` sends run
  /// at once, each in a child task. A closure that throws counts as a network error
  /// (transient); cancellation ends the drain with the units in flight back in line.
  func run(
    isolation: isolated (any Actor)? = #isolation,
    _ deliver: @escaping @Sendable (OutboxBatch<Item>) async throws -> DeliveryResponse
  ) async throws(StoreError) -> OutboxDrainReport {
    let result = await withTaskGroup(
      of: (key: String, outcome: Outcome).self, isolation: isolation
    ) { group -> Result<OutboxDrainReport, StoreError> in
      defer { group.cancelAll() }
      do throws(StoreError) {
        var action = try start()
        while true {
          switch action {
          case .finished(let report):
            return .success(report)
          case .wait(let duration):
            await engine.options.clock.sleep(duration)
            action = Task.isCancelled ? stop("cancelled") : try resume()
          case .send(let batch):
            guard !Task.isCancelled else {
              action = stop("cancelled")
              continue
            }
            group.addTask {
              do {
                return (batch.key, .answered(try await deliver(batch)))
              } catch is CancellationError {
                return (batch.key, .cancelled)
              } catch {
                return (batch.key, .answered(.networkError(String(describing: error))))
              }
            }
            action = try sent()
          case .awaitAnswer:
            guard let (key, outcome) = await group.next(), !Task.isCancelled,
              case .answered(let response) = outcome
            else {
              action = stop("cancelled")
              continue
            }
            action = try received(response, for: key)
          }
        }
      } catch {
        abandon()
        return .failure(error)
      }
    }
    return try result.get()
  }

  /// Runs the drain synchronously: for crash tests, whose operations cannot await. Sends in
  /// flight are answered in the order they were started, each when the drain waits for an
  /// answer.
  func runSynchronously(
    _ deliver: (OutboxBatch<Item>) -> DeliveryResponse,
    wait: (Duration) -> Void = { _ in }
  ) throws(StoreError) -> OutboxDrainReport {
    var started: [OutboxBatch<Item>] = []
    do throws(StoreError) {
      var action = try start()
      while true {
        switch action {
        case .finished(let report): return report
        case .wait(let duration):
          wait(duration)
          action = try resume()
        case .send(let batch):
          started.append(batch)
          action = try sent()
        case .awaitAnswer:
          guard !started.isEmpty else {
            action = stop("no send in flight")
            continue
          }
          let batch = started.removeFirst()
          action = try received(deliver(batch), for: batch.key)
        }
      }
    } catch {
      abandon()
      throw error
    }
  }
}
