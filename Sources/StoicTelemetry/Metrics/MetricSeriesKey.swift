/// A series' identity: what makes two handles the same series. Samples and the live file both
/// carry it whole.
struct MetricSeriesKey: Sendable, Hashable {
  var kind: MetricKind
  var name: String
  var unit: String
  /// Sorted (``MetricDimension`` order).
  var dimensions: [MetricDimension]
  /// A histogram's bucket bounds; empty for the other kinds.
  var bounds: [Double]

  /// The longest name, unit, key or value kept, in UTF-8 bytes; longer ones are cut at a
  /// character boundary.
  static let maximumTextBytes = 256
  /// The most dimensions kept; further ones are dropped (after sorting).
  static let maximumDimensions = 32

  /// A key as the spool makes it from a caller's label and dimensions: texts cut to
  /// ``maximumTextBytes``, dimensions sorted and cut to ``maximumDimensions``.
  init(
    kind: MetricKind, name: String, unit: String = "", dimensions: [(String, String)],
    bounds: [Double] = []
  ) {
    let sorted = dimensions.map {
      MetricDimension(Self.cut($0.0), Self.cut($0.1))
    }.sorted()
    self.init(
      kind: kind, name: Self.cut(name), unit: Self.cut(unit),
      sortedDimensions: Array(sorted.prefix(Self.maximumDimensions)), bounds: bounds)
  }

  /// A key whose parts are already in the stored form.
  init(
    kind: MetricKind, name: String, unit: String, sortedDimensions: [MetricDimension],
    bounds: [Double]
  ) {
    self.kind = kind
    self.name = name
    self.unit = unit
    self.dimensions = sortedDimensions
    self.bounds = bounds
  }

  /// The key of a sample's series.
  init(_ sample: MetricSample) {
    var bounds: [Double] = []
    if case .histogram(let histogram) = sample.value { bounds = histogram.bounds }
    self.init(
      kind: sample.kind, name: sample.name, unit: sample.unit,
      sortedDimensions: sample.dimensions, bounds: bounds)
  }

  /// The series into which this one's name folds beyond the cardinality limit.
  var overflow: MetricSeriesKey {
    MetricSeriesKey(
      kind: kind, name: name, unit: unit, sortedDimensions: [.overflow], bounds: bounds)
  }

  /// Whether this is an overflow series.
  var isOverflow: Bool { dimensions == [.overflow] }

  /// What the cardinality limit counts series by: the name and kind.
  var family: Family { Family(name: name, kind: kind) }

  /// A metric name and kind, the unit of the cardinality limit.
  struct Family: Sendable, Hashable {
    var name: String
    var kind: MetricKind
  }

  /// `text` cut to at most ``maximumTextBytes`` UTF-8 bytes at a character boundary.
  static func cut(_ text: String) -> String {
    guard text.utf8.count > maximumTextBytes else { return text }
    var result = ""
    var bytes = 0
    for character in text {
      let size = character.utf8.count
      if bytes + size > maximumTextBytes { break }
      result.append(character)
      bytes += size
    }
    return result
  }
}
