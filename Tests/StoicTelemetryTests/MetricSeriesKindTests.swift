import Testing

@testable import StoicTelemetry

/// Each metric kind's conformer (``MetricSeriesKind``): the one its code maps to, its samples
/// consistent and encoded by its value shape, and its cells: a series continued from a sample
/// reads that sample's value back, with the marker the continuation stored.
@Suite("Metric kinds")
struct MetricSeriesKindTests {
  /// A sample of `kind` with a value of its shape.
  static func sample(_ kind: MetricKind) -> MetricSample {
    let value: MetricSample.Value =
      switch kind.series.valueShape {
      case .integer: .integer(41)
      case .double: .double(2.5)
      case .histogram:
        .histogram(
          MetricHistogram(bounds: [1, 10], bucketCounts: [2, 0, 3], sum: 70, min: 0.5, max: 30))
      }
    return MetricSample(
      name: "m.\(kind)", dimensions: [MetricDimension("k", "v")], kind: kind, unit: "1",
      startNanoseconds: 100, timeNanoseconds: 200, value: value)
  }

  @Test("every kind's code maps to its conformer, and its name is its description")
  func codes() {
    var names: Set<String> = []
    for kind in MetricKind.allCases {
      #expect(kind.series.kind == kind)
      #expect(kind.description == kind.series.name)
      names.insert(kind.series.name)
    }
    #expect(names.count == MetricKind.allCases.count)
  }

  @Test("every kind: a sample of its shape is consistent, encodes and decodes to itself")
  func samples() {
    for kind in MetricKind.allCases {
      let sample = Self.sample(kind)
      #expect(sample.isConsistent)
      for other in MetricKind.allCases where other.series.valueShape != kind.series.valueShape {
        var wrong = sample
        wrong.kind = other
        #expect(!wrong.isConsistent, "\(kind) value as \(other)")
      }
      #expect(MetricSampleFormat.decode(MetricSampleFormat.encode([sample])) == .samples([sample]))
    }
  }

  @Test("every kind: a series continued from a sample reads its value and marker back")
  func cells() {
    let context = MetricsSeriesContext(clock: { 300 })
    for kind in MetricKind.allCases {
      let sample = Self.sample(kind)
      let cells = MetricsSeries.cells(continuing: sample)
      let key = MetricSeriesKey(sample)
      #expect(cells.count == MetricsLiveFormat.cellCount(kind: kind, boundCount: key.bounds.count))
      let memory = MetricsHeapCells(cells)
      let series = MetricsSeries(
        key: key, cells: memory.pointer, owner: memory, persisted: false, context: context)
      let (read, marker) = series.read(time: 200)
      #expect(read == sample, "\(kind)")
      #expect(marker == cells[MetricsLiveFormat.sampledMarkerCell], "\(kind)")
      #expect(!series.changed(marker: marker, start: 100), "\(kind)")
      // A value of another shape stores nothing: the kind's cells stay empty.
      let empty = MetricsSeries.initialCells(key, now: 100)
      var other = empty
      let foreign: MetricSample.Value =
        kind.series.valueShape == .integer ? .double(1) : .integer(1)
      #expect(kind.series.store(foreign, into: &other) == 0)
      #expect(other == empty, "\(kind)")
    }
  }
}
