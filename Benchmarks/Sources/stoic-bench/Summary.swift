/// Minimum, median and maximum of the samples of one figure over repeated runs.
struct Summary {
  let min: Double
  let median: Double
  let max: Double
  let count: Int

  init(_ samples: [Double]) {
    let sorted = samples.sorted()
    count = sorted.count
    guard let first = sorted.first, let last = sorted.last else {
      self.min = .nan
      self.median = .nan
      self.max = .nan
      return
    }
    min = first
    max = last
    let middle = sorted.count / 2
    median = sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
  }
}
