/// A stream of `count` records cycling through a pool of distinct payloads.
struct Workload: Sendable {
  let payloads: [[UInt8]]
  let count: Int

  /// The `index`-th record's payload.
  func payload(_ index: Int) -> [UInt8] {
    payloads[index % payloads.count]
  }

  /// The same payloads, `count` records.
  func with(count: Int) -> Workload {
    Workload(payloads: payloads, count: count)
  }
}
