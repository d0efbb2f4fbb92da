import Testing

@testable import StoicTelemetry

/// What the tracer decides without the tracing API: the W3C `traceparent`, the OpenTelemetry
/// samplers and their environment, and the span limits.
@Suite("Traces: traceparent, samplers, span limits")
struct TraceContextTests {
  @Test("valid traceparent headers parse and come back the same")
  func validTraceParents() throws {
    let header = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"
    let parent = try #require(TraceParent(header: header))
    #expect(parent.traceID.description == "0af7651916cd43dd8448eb211c80319c")
    #expect(parent.spanID.description == "b7ad6b7169203331")
    #expect(parent.isSampled)
    #expect(parent.header == header)
    #expect(
      TraceParent(header: "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-00")?.isSampled
        == false)
    // A later version may carry more fields after a dash; they are ignored.
    let later = TraceParent(header: "cc-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01-what")
    #expect(later?.traceID == parent.traceID)
    #expect(later?.header == header)
  }

  @Test(
    "invalid traceparent headers are no header",
    arguments: [
      "",
      "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01-",
      "00-0AF7651916CD43DD8448EB211C80319C-b7ad6b7169203331-01",
      "00-00000000000000000000000000000000-b7ad6b7169203331-01",
      "00-0af7651916cd43dd8448eb211c80319c-0000000000000000-01",
      "ff-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
      "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-0g",
      "00_0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
      "00-0af7651916cd43dd8448eb211c80319c-b7ad6b716920333-01",
      "cc-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01x",
    ])
  func invalidTraceParents(header: String) {
    #expect(TraceParent(header: header) == nil)
  }

  @Test("the samplers decide as the specification says; a ratio keeps about its share")
  func samplers() {
    let trace = TraceID(high: 1, low: 2)
    #expect(TraceSampler.alwaysOn.isSampled(traceID: trace, parentFlags: nil))
    #expect(!TraceSampler.alwaysOff.isSampled(traceID: trace, parentFlags: 1))
    #expect(!TraceSampler.default.isSampled(traceID: trace, parentFlags: 0))
    #expect(TraceSampler.default.isSampled(traceID: trace, parentFlags: 1))
    #expect(TraceSampler.default.isSampled(traceID: trace, parentFlags: nil))
    #expect(!TraceSampler.parentBased(root: .alwaysOff).isSampled(traceID: trace, parentFlags: nil))
    #expect(!TraceSampler.traceIDRatio(0).isSampled(traceID: trace, parentFlags: nil))
    #expect(TraceSampler.traceIDRatio(1).isSampled(traceID: trace, parentFlags: nil))
    var generator = SplitMixGenerator(state: 42)
    var sampled = 0
    for _ in 0..<10_000 {
      let id = TraceID.random(using: &generator)
      if TraceSampler.traceIDRatio(0.25).isSampled(traceID: id, parentFlags: nil) { sampled += 1 }
    }
    #expect((2_250...2_750).contains(sampled), "\(sampled) of 10000 at 0.25")
  }

  @Test("OTEL_TRACES_SAMPLER and its argument; unknown names and bad ratios are refused by name")
  func samplerEnvironment() throws {
    #expect(try TraceSampler.fromEnvironment([:]) == .default)
    #expect(try TraceSampler.fromEnvironment(["OTEL_TRACES_SAMPLER": "always_off"]) == .alwaysOff)
    #expect(try TraceSampler.fromEnvironment(["OTEL_TRACES_SAMPLER": " ALWAYS_ON "]) == .alwaysOn)
    #expect(
      try TraceSampler.fromEnvironment([
        "OTEL_TRACES_SAMPLER": "parentbased_traceidratio", "OTEL_TRACES_SAMPLER_ARG": "0.5",
      ]) == .parentBased(root: .traceIDRatio(0.5)))
    #expect(
      try TraceSampler.fromEnvironment(["OTEL_TRACES_SAMPLER": "traceidratio"])
        == .traceIDRatio(1))
    #expect(
      try TraceSampler.fromEnvironment(["OTEL_TRACES_SAMPLER": "parentbased_always_off"])
        == .parentBased(root: .alwaysOff))
    #expect(throws: TraceSamplerError.self) {
      try TraceSampler.fromEnvironment(["OTEL_TRACES_SAMPLER": "jaeger_remote"])
    }
    #expect(throws: TraceSamplerError.self) {
      try TraceSampler.fromEnvironment([
        "OTEL_TRACES_SAMPLER": "traceidratio", "OTEL_TRACES_SAMPLER_ARG": "1.5",
      ])
    }
    #expect(throws: TraceSamplerError.self) {
      try TraceSampler.fromEnvironment([
        "OTEL_TRACES_SAMPLER": "traceidratio", "OTEL_TRACES_SAMPLER_ARG": "half",
      ])
    }
  }

  @Test("the span limits: defaults, the environment's names, and what limiting keeps")
  func limits() {
    #expect(SpanLimits() == SpanLimits.fromEnvironment([:]).limits)
    #expect(SpanLimits().attributeCountLimit == 128 && SpanLimits().eventCountLimit == 128)
    let (limits, ignored) = SpanLimits.fromEnvironment([
      "OTEL_ATTRIBUTE_COUNT_LIMIT": "10", "OTEL_SPAN_ATTRIBUTE_COUNT_LIMIT": "5",
      "OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT": "4", "OTEL_SPAN_EVENT_COUNT_LIMIT": "-1",
      "OTEL_SPAN_LINK_COUNT_LIMIT": "7",
    ])
    #expect(limits.attributeCountLimit == 5)
    #expect(limits.attributesPerEventLimit == 10 && limits.attributesPerLinkLimit == 10)
    #expect(limits.attributeValueLengthLimit == 4)
    #expect(limits.eventCountLimit == 128 && limits.linkCountLimit == 7)
    #expect(ignored == ["OTEL_SPAN_EVENT_COUNT_LIMIT"])
    let (kept, dropped) = limits.limited(
      [
        "d": .int(1), "a": .string("abcdefgh"), "c": .bool(true), "b": .array([.string("xyzxyz")]),
        "e": .double(1), "f": .int(2),
      ], to: 4)
    #expect(
      kept == [
        "a": .string("abcd"), "b": .array([.string("xyzx")]), "c": .bool(true), "d": .int(1),
      ])
    #expect(dropped == 2)
  }

  /// A seeded generator, so the ratio's share is the same at every run.
  struct SplitMixGenerator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
  }
}
