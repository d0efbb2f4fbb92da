/// The cumulative state of a histogram series: explicit bucket bounds and the count of values
/// in each bucket, with their sum, minimum and maximum; an OTLP `HistogramDataPoint`.
///
/// Bucket `i` counts the values `v` with `bounds[i - 1] < v <= bounds[i]` (the first bucket
/// everything up to `bounds[0]`, the last, at index `bounds.count`, everything above the last
/// bound), as OpenTelemetry's explicit-bucket histogram does.
public struct MetricHistogram: Sendable, Hashable {
  /// The buckets' upper bounds, strictly increasing and finite.
  public var bounds: [Double]
  /// The count of values in each bucket: `bounds.count + 1` of them.
  public var bucketCounts: [UInt64]
  /// The sum of the values recorded.
  public var sum: Double
  /// The smallest value recorded, or `nil` when none was.
  public var min: Double?
  /// The largest value recorded, or `nil` when none was.
  public var max: Double?

  /// A histogram state.
  public init(bounds: [Double], bucketCounts: [UInt64], sum: Double, min: Double?, max: Double?) {
    self.bounds = bounds
    self.bucketCounts = bucketCounts
    self.sum = sum
    self.min = min
    self.max = max
  }

  /// How many values were recorded: the sum of ``bucketCounts`` (wrapping, like the counts).
  public var count: UInt64 {
    bucketCounts.reduce(0, &+)
  }

  /// OpenTelemetry's default explicit bucket bounds: 0, 5, 10, 25, 50, 75, 100, 250, 500, 750,
  /// 1000, 2500, 5000, 7500, 10000.
  public static let defaultBounds: [Double] = [
    0, 5, 10, 25, 50, 75, 100, 250, 500, 750, 1000, 2500, 5000, 7500, 10000,
  ]

  /// The index of the bucket that counts `value`: the first `i` with `value <= bounds[i]`, or
  /// `bounds.count` when `value` is above every bound. `bounds` must be sorted.
  public static func bucketIndex(of value: Double, in bounds: [Double]) -> Int {
    var low = 0
    var high = bounds.count
    while low < high {
      let middle = (low + high) / 2
      if value <= bounds[middle] { high = middle } else { low = middle + 1 }
    }
    return low
  }

  /// Whether `bounds` can be a histogram's: at most ``maximumBoundCount``, finite and strictly
  /// increasing.
  public static func isValid(bounds: [Double]) -> Bool {
    guard bounds.count <= maximumBoundCount else { return false }
    for index in bounds.indices {
      guard bounds[index].isFinite else { return false }
      if index > 0 && !(bounds[index - 1] < bounds[index]) { return false }
    }
    return true
  }

  /// The most bounds a histogram may have: 256.
  public static let maximumBoundCount = 256
}
