/// A counter owned elsewhere that a ``MetricsSpool`` publishes as a series: made by
/// ``MetricsSpool/observeCounter(label:dimensions:read:)``.
///
/// At every sample the spool calls the reader and stores what it returns as the series' value
/// (a value below the previous one starts the series again, with a new start time). Publishing
/// stops when ``cancel()`` is called or this object is released; the series keeps its last
/// value.
public final class MetricsObservation: Sendable {
  private let stop: @Sendable () -> Void

  init(stop: @escaping @Sendable () -> Void) {
    self.stop = stop
  }

  deinit {
    stop()
  }

  /// Stops calling the reader.
  public func cancel() {
    stop()
  }
}
