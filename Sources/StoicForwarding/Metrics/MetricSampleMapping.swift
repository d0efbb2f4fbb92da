public import StoicTelemetry

/// How spooled metric samples become OTLP metrics: samples of one name, kind and unit are data
/// points of one metric, in the order the names first appear; the same samples always give the
/// same metrics.
///
/// - a kind whose data is a monotonic sum (counter, floating-point counter): `Sum`, monotonic,
///   cumulative, integer or double points as its samples hold;
/// - gauge: `Gauge`, double points;
/// - histogram: `Histogram`, cumulative, explicit bounds, with count, sum, min and max.
///
/// The data follows the kind's `otlpData`, never the kind itself, so a new kind whose data is
/// one of these needs nothing here.
///
/// A sample's dimensions are its point's attributes, in their order.
public enum MetricSampleMapping {
  /// The metrics for `samples`.
  public static func otlp(_ samples: [MetricSample]) -> [OTLP.Metric] {
    struct Group {
      var name: String
      var kind: MetricKind
      var unit: String
      var samples: [MetricSample]
    }
    var groups: [Group] = []
    var index: [String: Int] = [:]
    for sample in samples where sample.isConsistent {
      let key = "\(sample.kind.rawValue)\u{0}\(sample.unit)\u{0}\(sample.name)"
      if let position = index[key] {
        groups[position].samples.append(sample)
      } else {
        index[key] = groups.count
        groups.append(
          Group(name: sample.name, kind: sample.kind, unit: sample.unit, samples: [sample]))
      }
    }
    return groups.map { group in
      OTLP.Metric(name: group.name, unit: group.unit, data: data(group.kind, group.samples))
    }
  }

  /// The data of samples of one kind.
  static func data(_ kind: MetricKind, _ samples: [MetricSample]) -> OTLP.Metric.Data {
    switch kind.otlpData {
    case .monotonicSum:
      .sum(OTLP.Sum(dataPoints: samples.map(number), aggregationTemporality: .cumulative))
    case .gauge:
      .gauge(OTLP.Gauge(dataPoints: samples.map(number)))
    case .explicitHistogram:
      .histogram(OTLP.Histogram(dataPoints: samples.map(histogram)))
    }
  }

  /// A sample's dimensions as attributes.
  static func attributes(_ sample: MetricSample) -> [OTLP.KeyValue] {
    sample.dimensions.map { OTLP.KeyValue($0.key, .string($0.value)) }
  }

  /// A counter's or a gauge's point.
  static func number(_ sample: MetricSample) -> OTLP.NumberDataPoint {
    let value: OTLP.NumberDataPoint.Value? =
      switch sample.value {
      case .integer(let integer): .int(integer)
      case .double(let double): .double(double)
      case .histogram: nil
      }
    return OTLP.NumberDataPoint(
      attributes: attributes(sample), startTimeUnixNano: sample.startNanoseconds,
      timeUnixNano: sample.timeNanoseconds, value: value)
  }

  /// A histogram's point.
  static func histogram(_ sample: MetricSample) -> OTLP.HistogramDataPoint {
    guard case .histogram(let histogram) = sample.value else {
      return OTLP.HistogramDataPoint(
        attributes: attributes(sample), startTimeUnixNano: sample.startNanoseconds,
        timeUnixNano: sample.timeNanoseconds)
    }
    return OTLP.HistogramDataPoint(
      attributes: attributes(sample), startTimeUnixNano: sample.startNanoseconds,
      timeUnixNano: sample.timeNanoseconds, count: histogram.count, sum: histogram.sum,
      bucketCounts: histogram.bucketCounts, explicitBounds: histogram.bounds, min: histogram.min,
      max: histogram.max)
  }
}
