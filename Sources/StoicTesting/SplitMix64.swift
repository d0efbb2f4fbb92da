/// The SplitMix64 generator: tiny, fast and fully determined by its seed, so that sampled
/// crash images and garbage bytes are the same on every run. Public so that tests built on
/// `StoicTesting` can draw reproducible random data the same way.
public struct SplitMix64: RandomNumberGenerator, Sendable {
  private var state: UInt64

  /// A generator starting from `seed`; the same seed gives the same sequence on every run.
  public init(seed: UInt64) { state = seed }

  /// The next 64 random bits.
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    return SplitMix64.finalize(state)
  }

  /// A number in `0..<bound` (`bound` > 0; the modulo bias is irrelevant here).
  package mutating func below(_ bound: Int) -> Int {
    Int(truncatingIfNeeded: next() % UInt64(max(bound, 1)))
  }

  /// SplitMix64's output function: a good 64-bit mixer.
  static func finalize(_ value: UInt64) -> UInt64 {
    var z = value
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// Derives a seed from a base seed and a list of small numbers (crash point, slot, ...).
  package static func mix(_ seed: UInt64, _ values: Int...) -> UInt64 {
    var result = finalize(seed)
    for value in values {
      result = finalize(result ^ UInt64(bitPattern: Int64(value)) &+ 0x632B_E59B_D9B4_E019)
    }
    return result
  }

  /// `count` deterministic pseudo-random bytes from `seed`.
  package static func bytes(count: Int, seed: UInt64) -> [UInt8] {
    var generator = SplitMix64(seed: seed)
    var bytes: [UInt8] = []
    bytes.reserveCapacity(count)
    while bytes.count < count {
      var word = generator.next()
      for _ in 0..<min(8, count - bytes.count) {
        bytes.append(UInt8(truncatingIfNeeded: word))
        word >>= 8
      }
    }
    return bytes
  }
}
