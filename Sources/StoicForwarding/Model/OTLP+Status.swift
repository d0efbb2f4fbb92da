extension OTLP {
  /// The body of an OTLP/HTTP failure (4xx, 5xx): `google.rpc.Status`, whose `message` says
  /// what was wrong. (`details` is skipped when decoding.)
  public struct Status: Sendable, Hashable {
    /// A `google.rpc.Code` (OTLP does not use it; 3 is INVALID_ARGUMENT, 14 UNAVAILABLE).
    public var code: Int32
    /// A message for a developer.
    public var message: String

    /// Creates a status.
    public init(code: Int32 = 0, message: String = "") {
      self.code = code
      self.message = message
    }
  }
}
