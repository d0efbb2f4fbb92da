@testable import StoicTelemetry

/// The metric sample decoder (`MetricSampleFormat`), whose encoding is canonical: a record it
/// decodes to samples re-encodes to exactly its bytes, and those decode again to samples that
/// encode the same (compared as bytes: a NaN value is never equal to itself).
enum MetricSampleTarget {
  static let target = FuzzTarget(
    name: "metric-sample",
    summary: "metric sample records: decode, re-encode to the same bytes, decode again",
    maxLength: 4096,
    run: { bytes in
      switch MetricSampleFormat.decode(bytes) {
      case .samples(let samples):
        let encoded = MetricSampleFormat.encode(samples)
        FuzzCheck.require(encoded == bytes, "a decoded record re-encodes to other bytes")
        guard case .samples(let again) = MetricSampleFormat.decode(encoded) else {
          FuzzCheck.fail("a re-encoded record does not decode")
        }
        FuzzCheck.require(
          MetricSampleFormat.encode(again) == encoded, "a re-encoded record changed meaning")
        for sample in samples {
          FuzzCheck.require(sample.isConsistent, "a decoded sample's value is not of its kind")
        }
      case .newerVersion(let version):
        FuzzCheck.require(
          version > MetricSampleFormat.version, "version \(version) called newer")
      case .damaged:
        break
      }
    },
    seeds: {
      let records = [MetricSampleFormat.encode(samples), MetricSampleFormat.encode([samples[3]])]
      var flipped = records[0]
      flipped[flipped.count / 3] ^= 0x04
      return records + [Array(records[0].prefix(records[0].count - 5)), flipped]
    })

  /// A sample of each kind, as a flush writes them.
  static let samples: [MetricSample] = [
    MetricSample(
      name: "requests",
      dimensions: [MetricDimension("method", "GET"), MetricDimension("status", "200")],
      kind: .counter, startNanoseconds: 1_700_000_000_000_000_000,
      timeNanoseconds: 1_700_000_060_000_000_000, value: .integer(12_345)),
    MetricSample(
      name: "bytes.sent", dimensions: [], kind: .floatingPointCounter, unit: "By",
      startNanoseconds: 1, timeNanoseconds: 2, value: .double(1.5e9)),
    MetricSample(
      name: "queue.depth", dimensions: [MetricDimension("queue", "outbox")], kind: .gauge,
      startNanoseconds: 5, timeNanoseconds: 6, value: .double(-17.25)),
    MetricSample(
      name: "latency", dimensions: [MetricDimension("route", "/v1/logs")], kind: .histogram,
      unit: "s", startNanoseconds: 10, timeNanoseconds: 20,
      value: .histogram(
        MetricHistogram(
          bounds: [0.005, 0.05, 0.5, 5], bucketCounts: [1, 4, 2, 0, 1], sum: 7.2, min: 0.001,
          max: 6.5))),
    MetricSample(
      name: "empty.histogram", dimensions: [], kind: .histogram, startNanoseconds: 10,
      timeNanoseconds: 20,
      value: .histogram(
        MetricHistogram(bounds: [1], bucketCounts: [0, 0], sum: 0, min: nil, max: nil))),
  ]
}
