/// OTLP's JSON encoding of the metrics signal's `Metric` (Gauge, Sum, Histogram,
/// NumberDataPoint, HistogramDataPoint), with the keys of proto3's JSON mapping. The request's
/// nesting, the response and the shared rules are in ``OTLPCommonJSON``.
enum OTLPMetricsJSON {
  // MARK: Writing

  static func write(_ metric: OTLP.Metric, to writer: inout JSONWriter) {
    writer.object { object in
      OTLPCommonJSON.writeString("name", metric.name, to: &object)
      OTLPCommonJSON.writeString("description", metric.description, to: &object)
      OTLPCommonJSON.writeString("unit", metric.unit, to: &object)
      switch metric.data {
      case .gauge(let gauge):
        object.key("gauge")
        object.object { gaugeObject in
          writeDataPoints(gauge.dataPoints, to: &gaugeObject)
        }
      case .sum(let sum):
        object.key("sum")
        object.object { sumObject in
          writeDataPoints(sum.dataPoints, to: &sumObject)
          OTLPCommonJSON.writeNumber(
            "aggregationTemporality", Int64(sum.aggregationTemporality.rawValue), to: &sumObject)
          if sum.isMonotonic {
            sumObject.key("isMonotonic")
            sumObject.bool(true)
          }
        }
      case .histogram(let histogram):
        object.key("histogram")
        object.object { histogramObject in
          if !histogram.dataPoints.isEmpty {
            histogramObject.key("dataPoints")
            histogramObject.array { array in
              for point in histogram.dataPoints { write(point, to: &array) }
            }
          }
          OTLPCommonJSON.writeNumber(
            "aggregationTemporality", Int64(histogram.aggregationTemporality.rawValue),
            to: &histogramObject)
        }
      case nil:
        break
      }
    }
  }

  private static func writeDataPoints(
    _ points: [OTLP.NumberDataPoint], to writer: inout JSONWriter
  ) {
    guard !points.isEmpty else { return }
    writer.key("dataPoints")
    writer.array { array in
      for point in points { write(point, to: &array) }
    }
  }

  static func write(_ point: OTLP.NumberDataPoint, to writer: inout JSONWriter) {
    writer.object { object in
      OTLPCommonJSON.writeQuoted("startTimeUnixNano", point.startTimeUnixNano, to: &object)
      OTLPCommonJSON.writeQuoted("timeUnixNano", point.timeUnixNano, to: &object)
      switch point.value {
      case .double(let value):
        object.key("asDouble")
        object.double(value)
      case .int(let value):
        object.key("asInt")
        object.quoted(value)
      case nil:
        break
      }
      OTLPCommonJSON.writeAttributesField(point.attributes, to: &object)
      OTLPCommonJSON.writeNumber("flags", Int64(point.flags), to: &object)
    }
  }

  static func write(_ point: OTLP.HistogramDataPoint, to writer: inout JSONWriter) {
    writer.object { object in
      OTLPCommonJSON.writeQuoted("startTimeUnixNano", point.startTimeUnixNano, to: &object)
      OTLPCommonJSON.writeQuoted("timeUnixNano", point.timeUnixNano, to: &object)
      OTLPCommonJSON.writeQuoted("count", point.count, to: &object)
      if let sum = point.sum {
        object.key("sum")
        object.double(sum)
      }
      if !point.bucketCounts.isEmpty {
        object.key("bucketCounts")
        object.array { array in
          for count in point.bucketCounts { array.quoted(count) }
        }
      }
      if !point.explicitBounds.isEmpty {
        object.key("explicitBounds")
        object.array { array in
          for bound in point.explicitBounds { array.double(bound) }
        }
      }
      OTLPCommonJSON.writeAttributesField(point.attributes, to: &object)
      OTLPCommonJSON.writeNumber("flags", Int64(point.flags), to: &object)
      if let min = point.min {
        object.key("min")
        object.double(min)
      }
      if let max = point.max {
        object.key("max")
        object.double(max)
      }
    }
  }

  // MARK: Reading

  static func readMetric(_ reader: inout JSONReader) throws(ForwardingError) -> OTLP.Metric {
    var metric = OTLP.Metric(name: "")
    try OTLPCommonJSON.readObject(&reader) { (key, reader) throws(ForwardingError) in
      switch key {
      case "name": metric.name = try reader.readString()
      case "description": metric.description = try reader.readString()
      case "unit": metric.unit = try reader.readString()
      case "gauge":
        var gauge = OTLP.Gauge()
        try OTLPCommonJSON.readObject(&reader) { (key, reader) throws(ForwardingError) in
          guard key == "dataPoints" else { return false }
          gauge.dataPoints = try readNumberDataPoints(&reader)
          return true
        }
        metric.data = .gauge(gauge)
      case "sum":
        var sum = OTLP.Sum(aggregationTemporality: .unspecified, isMonotonic: false)
        try OTLPCommonJSON.readObject(&reader) { (key, reader) throws(ForwardingError) in
          switch key {
          case "dataPoints": sum.dataPoints = try readNumberDataPoints(&reader)
          case "aggregationTemporality":
            sum.aggregationTemporality = OTLP.AggregationTemporality(
              rawValue: try OTLPCommonJSON.readInt32(&reader))
          case "isMonotonic": sum.isMonotonic = try reader.readBool()
          default: return false
          }
          return true
        }
        metric.data = .sum(sum)
      case "histogram":
        var histogram = OTLP.Histogram(aggregationTemporality: .unspecified)
        try OTLPCommonJSON.readObject(&reader) { (key, reader) throws(ForwardingError) in
          switch key {
          case "dataPoints":
            try OTLPCommonJSON.readArray(&reader) { (reader) throws(ForwardingError) in
              histogram.dataPoints.append(try readHistogramDataPoint(&reader))
            }
          case "aggregationTemporality":
            histogram.aggregationTemporality = OTLP.AggregationTemporality(
              rawValue: try OTLPCommonJSON.readInt32(&reader))
          default: return false
          }
          return true
        }
        metric.data = .histogram(histogram)
      default: return false
      }
      return true
    }
    return metric
  }

  private static func readNumberDataPoints(_ reader: inout JSONReader) throws(ForwardingError)
    -> [OTLP.NumberDataPoint]
  {
    var points: [OTLP.NumberDataPoint] = []
    try OTLPCommonJSON.readArray(&reader) { (reader) throws(ForwardingError) in
      var point = OTLP.NumberDataPoint()
      try OTLPCommonJSON.readObject(&reader) { (key, reader) throws(ForwardingError) in
        switch key {
        case "startTimeUnixNano": point.startTimeUnixNano = try OTLPCommonJSON.readUInt64(&reader)
        case "timeUnixNano": point.timeUnixNano = try OTLPCommonJSON.readUInt64(&reader)
        case "asDouble": point.value = .double(try OTLPCommonJSON.readDouble(&reader))
        case "asInt": point.value = .int(try OTLPCommonJSON.readInt64(&reader))
        case "attributes": point.attributes = try OTLPCommonJSON.readAttributes(&reader)
        case "flags": point.flags = try OTLPCommonJSON.readUInt32(&reader)
        default: return false
        }
        return true
      }
      points.append(point)
    }
    return points
  }

  static func readHistogramDataPoint(_ reader: inout JSONReader) throws(ForwardingError)
    -> OTLP.HistogramDataPoint
  {
    var point = OTLP.HistogramDataPoint()
    try OTLPCommonJSON.readObject(&reader) { (key, reader) throws(ForwardingError) in
      switch key {
      case "startTimeUnixNano": point.startTimeUnixNano = try OTLPCommonJSON.readUInt64(&reader)
      case "timeUnixNano": point.timeUnixNano = try OTLPCommonJSON.readUInt64(&reader)
      case "count": point.count = try OTLPCommonJSON.readUInt64(&reader)
      case "sum": point.sum = try OTLPCommonJSON.readDouble(&reader)
      case "bucketCounts":
        var counts: [UInt64] = []
        try OTLPCommonJSON.readArray(&reader) { (reader) throws(ForwardingError) in
          counts.append(try OTLPCommonJSON.readUInt64(&reader))
        }
        point.bucketCounts = counts
      case "explicitBounds":
        var bounds: [Double] = []
        try OTLPCommonJSON.readArray(&reader) { (reader) throws(ForwardingError) in
          bounds.append(try OTLPCommonJSON.readDouble(&reader))
        }
        point.explicitBounds = bounds
      case "attributes": point.attributes = try OTLPCommonJSON.readAttributes(&reader)
      case "flags": point.flags = try OTLPCommonJSON.readUInt32(&reader)
      case "min": point.min = try OTLPCommonJSON.readDouble(&reader)
      case "max": point.max = try OTLPCommonJSON.readDouble(&reader)
      default: return false
      }
      return true
    }
    return point
  }

}
