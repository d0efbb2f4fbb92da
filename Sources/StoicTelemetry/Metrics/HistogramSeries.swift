import CStoicAtomics

/// A handle on a histogram series of a ``MetricsSpool``: values counted into buckets with
/// explicit bounds, with their sum, minimum and maximum, exported as a cumulative OTLP
/// `Histogram` (a swift-metrics recorder that aggregates, or a timer in nanoseconds).
///
/// Made by ``MetricsSpool/histogram(label:dimensions:bounds:)`` or
/// ``MetricsSpool/timer(label:dimensions:)``. A recording finds the value's bucket (a binary
/// search over ``bounds``), adds it to the sum and folds it into the minimum and maximum
/// (compare-and-swap loops), then adds one to the bucket, all in the live file: when
/// ``record(_:)`` returns, the value is counted in the kernel. The bucket is added
/// last, so a crash in the middle of a recording never counts a value whose sum is missing (the
/// sum may instead hold that unacknowledged value without its bucket: one value per crash that
/// interrupted a recording); the count is the sum of the buckets. Safe to use from any thread.
public final class HistogramSeries: @unchecked Sendable {
  let series: MetricsSeries
  /// The buckets' upper bounds: bucket `i` counts values in `(bounds[i - 1], bounds[i]]`.
  public let bounds: [Double]
  private let sum: UnsafeMutableRawPointer
  private let min: UnsafeMutableRawPointer
  private let max: UnsafeMutableRawPointer
  private let buckets: UnsafeMutableRawPointer

  init(_ series: MetricsSeries) {
    self.series = series
    self.bounds = series.key.bounds
    self.sum = series.cell(MetricsLiveFormat.histogramSumCell)
    self.min = series.cell(MetricsLiveFormat.histogramMinCell)
    self.max = series.cell(MetricsLiveFormat.histogramMaxCell)
    self.buckets = series.cell(MetricsLiveFormat.histogramFirstBucketCell)
  }

  /// Records `value`; NaN is ignored (it belongs to no bucket).
  public func record(_ value: Double) {
    guard !value.isNaN else { return }
    let index = MetricHistogram.bucketIndex(of: value, in: bounds)
    _ = stoic_atomic_add_double(sum, value)
    stoic_atomic_min_double(min, value)
    stoic_atomic_max_double(max, value)
    stoic_atomic_add(buckets + index * 8, 1)
  }

  /// Records a duration in nanoseconds (what a timer's series holds).
  public func recordNanoseconds(_ nanoseconds: Int64) {
    record(Double(nanoseconds))
  }

  /// The current state.
  public var value: MetricHistogram {
    guard case .histogram(let histogram) = series.read(time: 0).sample.value else {
      return MetricHistogram(
        bounds: bounds, bucketCounts: [], sum: 0, min: nil, max: nil)
    }
    return histogram
  }
}

extension HistogramSeries: MetricSeriesKind {
  static var kind: MetricKind { .histogram }
  static var name: String { "histogram" }
  static var valueShape: MetricValueShape { .histogram }
  static var otlpData: MetricOTLPData { .explicitHistogram }

  /// The shared cells, then sum, minimum, maximum (doubles) and a count per bucket.
  static func cellCount(boundCount: Int) -> Int {
    MetricsLiveFormat.histogramFirstBucketCell + boundCount + 1
  }

  /// An empty series' minimum is +∞ and its maximum −∞, so that the first value is both.
  static func initialize(_ cells: inout [UInt64]) {
    cells[MetricsLiveFormat.histogramMinCell] = Double.infinity.bitPattern
    cells[MetricsLiveFormat.histogramMaxCell] = (-Double.infinity).bitPattern
  }

  /// The sum, the extremes when the sample has them, and the bucket counts (those the cells
  /// hold); the marker is the count.
  static func store(_ value: MetricSample.Value, into cells: inout [UInt64]) -> UInt64 {
    guard case .histogram(let histogram) = value else { return 0 }
    cells[MetricsLiveFormat.histogramSumCell] = histogram.sum.bitPattern
    if let min = histogram.min, let max = histogram.max {
      cells[MetricsLiveFormat.histogramMinCell] = min.bitPattern
      cells[MetricsLiveFormat.histogramMaxCell] = max.bitPattern
    }
    for (index, count) in histogram.bucketCounts.enumerated()
    where MetricsLiveFormat.histogramFirstBucketCell + index < cells.count {
      cells[MetricsLiveFormat.histogramFirstBucketCell + index] = count
    }
    return histogram.count
  }

  /// The buckets first: a recording adds to the sum before its bucket, so the sum read after
  /// covers at least the values counted. The marker is the count; the extremes are nil while
  /// they still hold their starting infinities.
  static func read(_ series: MetricsSeries) -> (value: MetricSample.Value, marker: UInt64) {
    let bounds = series.key.bounds
    let counts = (0...bounds.count).map {
      series.load(MetricsLiveFormat.histogramFirstBucketCell + $0)
    }
    var histogram = MetricHistogram(
      bounds: bounds, bucketCounts: counts,
      sum: series.loadDouble(MetricsLiveFormat.histogramSumCell),
      min: series.loadDouble(MetricsLiveFormat.histogramMinCell),
      max: series.loadDouble(MetricsLiveFormat.histogramMaxCell))
    if let min = histogram.min, let max = histogram.max, min > max {
      histogram.min = nil
      histogram.max = nil
    }
    return (.histogram(histogram), histogram.count)
  }
}
