extension SettingsStore {
  /// Every committed value, in commit order, each exactly once: first the value current when
  /// the stream is created, then each value an ``update(_:)`` commits after that.
  ///
  /// Unlike Observation, which coalesces changes for a UI, this stream buffers every value
  /// (without bound, so consume it). It ends when the store is released.
  public func changes() -> AsyncStream<Value> {
    let (stream, continuation) = AsyncStream<Value>.makeStream(bufferingPolicy: .unbounded)
    let subscriber = writer.withLock { state in
      let subscriber = state.nextSubscriber
      state.nextSubscriber += 1
      continuation.yield(state.committed)
      state.subscribers[subscriber] = continuation
      return subscriber
    }
    continuation.onTermination = { [weak self] _ in
      self?.writer.withLock { _ = $0.subscribers.removeValue(forKey: subscriber) }
    }
    return stream
  }
}
