/// The last sample of every series, as the metrics journal holds them: what a spool continues
/// from when its live file cannot be trusted, and the snapshot kept when older samples are
/// dropped.
struct MetricsLastSamples {
  private var samples: [MetricSeriesKey: MetricSample] = [:]
  /// The series in the order they first appeared, so a rebuild is deterministic.
  private var order: [MetricSeriesKey] = []

  /// Keeps `sample` as its series' last (a later sample replaces an earlier one).
  mutating func take(_ sample: MetricSample) {
    let key = MetricSeriesKey(sample)
    if samples.updateValue(sample, forKey: key) == nil { order.append(key) }
  }

  /// Every series' last sample, in first-appearance order.
  var all: [MetricSample] { order.compactMap { samples[$0] } }

  /// How many series.
  var count: Int { order.count }
}
