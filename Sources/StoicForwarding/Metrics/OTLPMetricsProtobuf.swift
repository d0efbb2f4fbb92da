/// The protobuf encoding of `opentelemetry/proto/metrics/v1/metrics.proto`'s `Metric` (Gauge,
/// Sum, Histogram, NumberDataPoint, HistogramDataPoint), with the field numbers of that file.
/// Fields are written in field-number order. The request's nesting
/// (`ExportMetricsServiceRequest`, `ResourceMetrics`, `ScopeMetrics`) and the response are
/// every signal's, in ``OTLPCommonProtobuf``.
enum OTLPMetricsProtobuf {
  /// `Metric` (`data` is a oneof of gauge, sum, histogram and two kinds skipped here:
  /// exponential_histogram = 10, summary = 11).
  enum MetricField {
    static let name = 1
    static let description = 2
    static let unit = 3
    static let gauge = 5
    static let sum = 7
    static let histogram = 9
  }

  /// `Gauge`.
  enum GaugeField {
    static let dataPoints = 1
  }

  /// `Sum`.
  enum SumField {
    static let dataPoints = 1
    static let aggregationTemporality = 2  // enum AggregationTemporality
    static let isMonotonic = 3
  }

  /// `Histogram`.
  enum HistogramField {
    static let dataPoints = 1
    static let aggregationTemporality = 2
  }

  /// `NumberDataPoint` (`value` is a oneof of as_double and as_int; exemplars = 5 skipped).
  enum NumberDataPointField {
    static let startTimeUnixNano = 2  // fixed64
    static let timeUnixNano = 3  // fixed64
    static let asDouble = 4  // double
    static let asInt = 6  // sfixed64
    static let attributes = 7
    static let flags = 8  // uint32
  }

  /// `HistogramDataPoint` (exemplars = 8 skipped).
  enum HistogramDataPointField {
    static let startTimeUnixNano = 2  // fixed64
    static let timeUnixNano = 3  // fixed64
    static let count = 4  // fixed64
    static let sum = 5  // optional double
    static let bucketCounts = 6  // repeated fixed64, packed
    static let explicitBounds = 7  // repeated double, packed
    static let attributes = 9
    static let flags = 10  // uint32
    static let min = 11  // optional double
    static let max = 12  // optional double
  }

  // MARK: Writing

  static func write(_ metric: OTLP.Metric, to writer: inout ProtobufWriter) {
    writer.string(MetricField.name, metric.name)
    writer.string(MetricField.description, metric.description)
    writer.string(MetricField.unit, metric.unit)
    switch metric.data {
    case .gauge(let gauge):
      writer.message(MetricField.gauge) { message in
        for point in gauge.dataPoints {
          message.message(GaugeField.dataPoints) { write(point, to: &$0) }
        }
      }
    case .sum(let sum):
      writer.message(MetricField.sum) { message in
        for point in sum.dataPoints {
          message.message(SumField.dataPoints) { write(point, to: &$0) }
        }
        message.int32(SumField.aggregationTemporality, sum.aggregationTemporality.rawValue)
        message.bool(SumField.isMonotonic, sum.isMonotonic)
      }
    case .histogram(let histogram):
      writer.message(MetricField.histogram) { message in
        for point in histogram.dataPoints {
          message.message(HistogramField.dataPoints) { write(point, to: &$0) }
        }
        message.int32(
          HistogramField.aggregationTemporality, histogram.aggregationTemporality.rawValue)
      }
    case nil:
      break
    }
  }

  static func write(_ point: OTLP.NumberDataPoint, to writer: inout ProtobufWriter) {
    writer.fixed64(NumberDataPointField.startTimeUnixNano, point.startTimeUnixNano)
    writer.fixed64(NumberDataPointField.timeUnixNano, point.timeUnixNano)
    switch point.value {
    case .double(let value): writer.presentFixed64(NumberDataPointField.asDouble, value.bitPattern)
    case .int(let value):
      writer.presentFixed64(NumberDataPointField.asInt, UInt64(bitPattern: value))
    case nil: break
    }
    OTLPCommonProtobuf.writeAttributes(
      NumberDataPointField.attributes, point.attributes, to: &writer)
    writer.uint64(NumberDataPointField.flags, UInt64(point.flags))
  }

  static func write(_ point: OTLP.HistogramDataPoint, to writer: inout ProtobufWriter) {
    writer.fixed64(HistogramDataPointField.startTimeUnixNano, point.startTimeUnixNano)
    writer.fixed64(HistogramDataPointField.timeUnixNano, point.timeUnixNano)
    writer.fixed64(HistogramDataPointField.count, point.count)
    if let sum = point.sum { writer.presentFixed64(HistogramDataPointField.sum, sum.bitPattern) }
    writer.packedFixed64(HistogramDataPointField.bucketCounts, point.bucketCounts)
    writer.packedDouble(HistogramDataPointField.explicitBounds, point.explicitBounds)
    OTLPCommonProtobuf.writeAttributes(
      HistogramDataPointField.attributes, point.attributes, to: &writer)
    writer.uint64(HistogramDataPointField.flags, UInt64(point.flags))
    if let min = point.min { writer.presentFixed64(HistogramDataPointField.min, min.bitPattern) }
    if let max = point.max { writer.presentFixed64(HistogramDataPointField.max, max.bitPattern) }
  }

  // MARK: Reading

  static func readMetric(_ reader: inout ProtobufReader) throws(ForwardingError) -> OTLP.Metric {
    var metric = OTLP.Metric(name: "")
    while let (number, wireType) = try reader.nextField() {
      switch (number, wireType) {
      case (MetricField.name, .lengthDelimited):
        metric.name = try reader.string()
      case (MetricField.description, .lengthDelimited):
        metric.description = try reader.string()
      case (MetricField.unit, .lengthDelimited):
        metric.unit = try reader.string()
      case (MetricField.gauge, .lengthDelimited):
        var gauge = OTLP.Gauge()
        if case .gauge(let earlier) = metric.data {
          gauge = earlier
          metric.data = nil
        }
        var message = try reader.message()
        while let (field, type) = try message.nextField() {
          if field == GaugeField.dataPoints, type == .lengthDelimited {
            var point = try message.message()
            gauge.dataPoints.append(try readNumberDataPoint(&point))
          } else {
            try message.skip(type, field: field)
          }
        }
        metric.data = .gauge(gauge)
      case (MetricField.sum, .lengthDelimited):
        var sum = OTLP.Sum(aggregationTemporality: .unspecified, isMonotonic: false)
        if case .sum(let earlier) = metric.data {
          sum = earlier
          metric.data = nil
        }
        var message = try reader.message()
        while let (field, type) = try message.nextField() {
          switch (field, type) {
          case (SumField.dataPoints, .lengthDelimited):
            var point = try message.message()
            sum.dataPoints.append(try readNumberDataPoint(&point))
          case (SumField.aggregationTemporality, .varint):
            sum.aggregationTemporality = OTLP.AggregationTemporality(
              rawValue: Int32(truncatingIfNeeded: try message.varint()))
          case (SumField.isMonotonic, .varint):
            sum.isMonotonic = try message.varint() != 0
          default:
            try message.skip(type, field: field)
          }
        }
        metric.data = .sum(sum)
      case (MetricField.histogram, .lengthDelimited):
        var histogram = OTLP.Histogram(aggregationTemporality: .unspecified)
        if case .histogram(let earlier) = metric.data {
          histogram = earlier
          metric.data = nil
        }
        var message = try reader.message()
        while let (field, type) = try message.nextField() {
          switch (field, type) {
          case (HistogramField.dataPoints, .lengthDelimited):
            var point = try message.message()
            histogram.dataPoints.append(try readHistogramDataPoint(&point))
          case (HistogramField.aggregationTemporality, .varint):
            histogram.aggregationTemporality = OTLP.AggregationTemporality(
              rawValue: Int32(truncatingIfNeeded: try message.varint()))
          default:
            try message.skip(type, field: field)
          }
        }
        metric.data = .histogram(histogram)
      default:
        try reader.skip(wireType, field: number)
      }
    }
    return metric
  }

  static func readNumberDataPoint(_ reader: inout ProtobufReader) throws(ForwardingError)
    -> OTLP.NumberDataPoint
  {
    var point = OTLP.NumberDataPoint()
    while let (number, wireType) = try reader.nextField() {
      switch (number, wireType) {
      case (NumberDataPointField.startTimeUnixNano, .fixed64):
        point.startTimeUnixNano = try reader.fixed64()
      case (NumberDataPointField.timeUnixNano, .fixed64):
        point.timeUnixNano = try reader.fixed64()
      case (NumberDataPointField.asDouble, .fixed64):
        point.value = .double(Double(bitPattern: try reader.fixed64()))
      case (NumberDataPointField.asInt, .fixed64):
        point.value = .int(Int64(bitPattern: try reader.fixed64()))
      case (NumberDataPointField.attributes, .lengthDelimited):
        point.attributes.append(try OTLPCommonProtobuf.readKeyValue(&reader))
      case (NumberDataPointField.flags, .varint):
        point.flags = UInt32(truncatingIfNeeded: try reader.varint())
      default:
        try reader.skip(wireType, field: number)
      }
    }
    return point
  }

  static func readHistogramDataPoint(_ reader: inout ProtobufReader) throws(ForwardingError)
    -> OTLP.HistogramDataPoint
  {
    var point = OTLP.HistogramDataPoint()
    var bounds: [UInt64] = []
    while let (number, wireType) = try reader.nextField() {
      switch (number, wireType) {
      case (HistogramDataPointField.startTimeUnixNano, .fixed64):
        point.startTimeUnixNano = try reader.fixed64()
      case (HistogramDataPointField.timeUnixNano, .fixed64):
        point.timeUnixNano = try reader.fixed64()
      case (HistogramDataPointField.count, .fixed64):
        point.count = try reader.fixed64()
      case (HistogramDataPointField.sum, .fixed64):
        point.sum = Double(bitPattern: try reader.fixed64())
      case (HistogramDataPointField.bucketCounts, .fixed64),
        (HistogramDataPointField.bucketCounts, .lengthDelimited):
        try reader.repeated64(wireType, into: &point.bucketCounts)
      case (HistogramDataPointField.explicitBounds, .fixed64),
        (HistogramDataPointField.explicitBounds, .lengthDelimited):
        try reader.repeated64(wireType, into: &bounds)
      case (HistogramDataPointField.attributes, .lengthDelimited):
        point.attributes.append(try OTLPCommonProtobuf.readKeyValue(&reader))
      case (HistogramDataPointField.flags, .varint):
        point.flags = UInt32(truncatingIfNeeded: try reader.varint())
      case (HistogramDataPointField.min, .fixed64):
        point.min = Double(bitPattern: try reader.fixed64())
      case (HistogramDataPointField.max, .fixed64):
        point.max = Double(bitPattern: try reader.fixed64())
      default:
        try reader.skip(wireType, field: number)
      }
    }
    point.explicitBounds = bounds.map { Double(bitPattern: $0) }
    return point
  }

}
