/// Which spans are recorded, as the OpenTelemetry SDK specification's built-in samplers decide:
/// a span not sampled is not written (it costs no write) but still carries its trace, with the
/// sampled flag off, to the spans and services after it.
public indirect enum TraceSampler: Sendable, Hashable {
  /// Every span (`always_on`).
  case alwaysOn
  /// No span (`always_off`).
  case alwaysOff
  /// A share of the traces, by their id (`traceidratio`): the same trace is sampled or not
  /// wherever it is decided. The ratio is clamped to 0...1.
  case traceIDRatio(Double)
  /// A root span as `root` decides; a child as its parent was (its sampled flag)
  /// (`parentbased_…`).
  case parentBased(root: TraceSampler)

  /// The default: `parentbased_always_on`.
  public static let `default` = TraceSampler.parentBased(root: .alwaysOn)

  /// Whether a span of `traceID` is sampled, with `parentFlags` its parent's trace flags
  /// (`nil` for a root span).
  public func isSampled(traceID: TraceID, parentFlags: UInt8?) -> Bool {
    switch self {
    case .alwaysOn:
      return true
    case .alwaysOff:
      return false
    case .traceIDRatio(let ratio):
      guard ratio > 0 else { return false }
      guard ratio < 1 else { return true }
      // The low 63 bits of the trace id against the ratio's share of 2^63.
      let bound = UInt64(ratio * 9_223_372_036_854_775_808.0)
      return traceID.low & 0x7FFF_FFFF_FFFF_FFFF < bound
    case .parentBased(let root):
      guard let parentFlags else { return root.isSampled(traceID: traceID, parentFlags: nil) }
      return parentFlags & 1 == 1
    }
  }

  /// `text` without spaces and tabs at either end.
  private static func trimmed(_ text: String) -> String {
    let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
    guard let first = text.firstIndex(where: { !blank($0) }),
      let last = text.lastIndex(where: { !blank($0) })
    else { return "" }
    return String(text[first...last])
  }

  /// The sampler `OTEL_TRACES_SAMPLER` names, with `OTEL_TRACES_SAMPLER_ARG` the ratio of the
  /// ratio samplers (default 1.0): `always_on`, `always_off`, `traceidratio`,
  /// `parentbased_always_on` (the default, when unset), `parentbased_always_off`,
  /// `parentbased_traceidratio`.
  ///
  /// - Throws: ``TraceSamplerError`` naming the variable for a sampler it does not know or a
  ///   ratio that is not a number in 0...1: a caller that must not fail ignores the variable
  ///   (the default applies), as the specification asks.
  public static func fromEnvironment(_ environment: [String: String]) throws(TraceSamplerError)
    -> TraceSampler
  {
    func ratio() throws(TraceSamplerError) -> Double {
      guard let text = environment["OTEL_TRACES_SAMPLER_ARG"], !trimmed(text).isEmpty else {
        return 1
      }
      guard let value = Double(trimmed(text)), (0...1).contains(value)
      else {
        throw TraceSamplerError(
          variable: "OTEL_TRACES_SAMPLER_ARG", reason: "not a ratio between 0 and 1")
      }
      return value
    }
    let name = environment["OTEL_TRACES_SAMPLER"].map { trimmed($0).lowercased() }
    switch name {
    case nil, "", "parentbased_always_on": return .default
    case "always_on": return .alwaysOn
    case "always_off": return .alwaysOff
    case "traceidratio": return .traceIDRatio(try ratio())
    case "parentbased_always_off": return .parentBased(root: .alwaysOff)
    case "parentbased_traceidratio": return .parentBased(root: .traceIDRatio(try ratio()))
    default:
      throw TraceSamplerError(
        variable: "OTEL_TRACES_SAMPLER",
        reason:
          "not a sampler Stoic knows (always_on, always_off, traceidratio, "
          + "parentbased_always_on, parentbased_always_off, parentbased_traceidratio)")
    }
  }
}

/// An `OTEL_TRACES_SAMPLER*` value Stoic cannot use: which variable, and why (never the value).
public struct TraceSamplerError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The variable.
  public var variable: String
  /// Why it is refused.
  public var reason: String

  /// `variable: reason`.
  public var description: String { "\(variable): \(reason)" }
}
