extension OutboxDrain {
  /// Runs the drain with an async delivery closure and the clock's sleep, on the caller's
  /// actor (the outbox's), so the engine is only ever touched there. A closure that
  /// throws counts as a network error (transient); cancellation ends the drain with the entry
  /// in flight back in line.
  func run(
    isolation: isolated (any Actor)? = #isolation,
    _ deliver: @Sendable (OutboxBatch<Item>) async throws -> DeliveryResponse
  ) async throws(StoreError) -> OutboxDrainReport {
    do throws(StoreError) {
      var action = try start()
      while true {
        switch action {
        case .finished(let report):
          return report
        case .wait(let duration):
          await engine.options.clock.sleep(duration)
          action = Task.isCancelled ? stop("cancelled") : try resume()
        case .send(let batch):
          guard !Task.isCancelled else {
            action = stop("cancelled")
            continue
          }
          let response: DeliveryResponse
          do {
            response = try await deliver(batch)
          } catch is CancellationError {
            action = stop("cancelled")
            continue
          } catch {
            response = .networkError(String(describing: error))
          }
          action = try received(response)
        }
      }
    } catch {
      abandon()
      throw error
    }
  }

  /// Runs the drain synchronously: for crash tests, whose operations cannot await.
  func runSynchronously(
    _ deliver: (OutboxBatch<Item>) -> DeliveryResponse,
    wait: (Duration) -> Void = { _ in }
  ) throws(StoreError) -> OutboxDrainReport {
    do throws(StoreError) {
      var action = try start()
      while true {
        switch action {
        case .finished(let report): return report
        case .wait(let duration):
          wait(duration)
          action = try resume()
        case .send(let batch):
          action = try received(deliver(batch))
        }
      }
    } catch {
      abandon()
      throw error
    }
  }
}
