/// How much a span keeps, as the OpenTelemetry SDK specification's span limits say, with its
/// defaults: at most 128 attributes, 128 events, 128 links, 128 attributes per event and per
/// link, values of any length. What a limit keeps out is counted in the span's dropped counts.
public struct SpanLimits: Sendable, Hashable {
  /// The most attributes a span keeps (`OTEL_SPAN_ATTRIBUTE_COUNT_LIMIT`). Default 128.
  public var attributeCountLimit: Int
  /// The longest string value kept, in characters; longer ones (and each string of an array)
  /// are cut to it (`OTEL_SPAN_ATTRIBUTE_VALUE_LENGTH_LIMIT`). Default `nil`: no limit.
  public var attributeValueLengthLimit: Int?
  /// The most events a span keeps (`OTEL_SPAN_EVENT_COUNT_LIMIT`). Default 128.
  public var eventCountLimit: Int
  /// The most links a span keeps (`OTEL_SPAN_LINK_COUNT_LIMIT`). Default 128.
  public var linkCountLimit: Int
  /// The most attributes an event keeps (`OTEL_EVENT_ATTRIBUTE_COUNT_LIMIT`). Default 128.
  public var attributesPerEventLimit: Int
  /// The most attributes a link keeps (`OTEL_LINK_ATTRIBUTE_COUNT_LIMIT`). Default 128.
  public var attributesPerLinkLimit: Int

  /// Creates limits; every parameter has the default described on its property.
  public init(
    attributeCountLimit: Int = 128, attributeValueLengthLimit: Int? = nil,
    eventCountLimit: Int = 128, linkCountLimit: Int = 128, attributesPerEventLimit: Int = 128,
    attributesPerLinkLimit: Int = 128
  ) {
    self.attributeCountLimit = attributeCountLimit
    self.attributeValueLengthLimit = attributeValueLengthLimit
    self.eventCountLimit = eventCountLimit
    self.linkCountLimit = linkCountLimit
    self.attributesPerEventLimit = attributesPerEventLimit
    self.attributesPerLinkLimit = attributesPerLinkLimit
  }

  /// The limits the environment sets, as the specification names them: the span's own
  /// variables, else the general `OTEL_ATTRIBUTE_COUNT_LIMIT` and
  /// `OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT` for every attribute count and the value length, else
  /// the defaults. A value that is not a whole number ≥ 0 is ignored as if unset, and its
  /// variable listed in `ignored`.
  public static func fromEnvironment(_ environment: [String: String]) -> (
    limits: SpanLimits, ignored: [String]
  ) {
    var ignored: [String] = []
    func number(_ variable: String) -> Int? {
      guard let text = environment[variable], !text.isEmpty else { return nil }
      guard let value = Int(text), value >= 0 else {
        ignored.append(variable)
        return nil
      }
      return value
    }
    let generalCount = number("OTEL_ATTRIBUTE_COUNT_LIMIT") ?? 128
    let generalLength = number("OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT")
    let limits = SpanLimits(
      attributeCountLimit: number("OTEL_SPAN_ATTRIBUTE_COUNT_LIMIT") ?? generalCount,
      attributeValueLengthLimit: number("OTEL_SPAN_ATTRIBUTE_VALUE_LENGTH_LIMIT") ?? generalLength,
      eventCountLimit: number("OTEL_SPAN_EVENT_COUNT_LIMIT") ?? 128,
      linkCountLimit: number("OTEL_SPAN_LINK_COUNT_LIMIT") ?? 128,
      attributesPerEventLimit: number("OTEL_EVENT_ATTRIBUTE_COUNT_LIMIT") ?? generalCount,
      attributesPerLinkLimit: number("OTEL_LINK_ATTRIBUTE_COUNT_LIMIT") ?? generalCount)
    return (limits, ignored)
  }

  /// At most `limit` of `attributes` (those first by key, so that the same attributes always
  /// keep the same ones), each string cut to ``attributeValueLengthLimit``, and how many were
  /// dropped.
  public func limited(_ attributes: SpanRecordAttributes, to limit: Int) -> (
    attributes: SpanRecordAttributes, dropped: UInt32
  ) {
    var kept = attributes
    var dropped: UInt32 = 0
    if attributes.count > limit {
      kept = [:]
      for key in attributes.keys.sorted().prefix(max(limit, 0)) { kept[key] = attributes[key] }
      dropped = UInt32(clamping: attributes.count - kept.count)
    }
    if let length = attributeValueLengthLimit {
      for (key, value) in kept { kept[key] = Self.cut(value, to: length) }
    }
    return (kept, dropped)
  }

  /// `value` with every string cut to `length` characters.
  static func cut(_ value: SpanAttributeValue, to length: Int) -> SpanAttributeValue {
    switch value {
    case .string(let text) where text.count > length:
      .string(String(text.prefix(max(length, 0))))
    case .array(let values):
      .array(values.map { cut($0, to: length) })
    default:
      value
    }
  }
}
