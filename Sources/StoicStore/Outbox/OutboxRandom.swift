/// Where the outbox draws randomness: the jitter of its backoff and the batch keys it mints.
/// Tests pass a seeded source so that waits and keys are reproducible.
public struct OutboxRandom: Sendable {
  /// Returns a uniformly distributed 64-bit value.
  public let next: @Sendable () -> UInt64

  /// Creates a source from a closure.
  public init(_ next: @escaping @Sendable () -> UInt64) {
    self.next = next
  }

  /// The system's cryptographically secure generator.
  public static let system = OutboxRandom {
    var generator = SystemRandomNumberGenerator()
    return generator.next()
  }
}
