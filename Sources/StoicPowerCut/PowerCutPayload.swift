import StoicTesting

/// The bytes the workloads store, each derived from a few numbers so that whatever is read
/// back after a cut proves itself intact: a torn, mixed or misplaced payload does not match
/// what its own header says it is.
///
/// A payload is `kind:u8 | a:u32 | b:u32 | length:u32 | body`, little-endian, where the body
/// is `length` SplitMix64 bytes seeded from `kind`, `a` and `b`.
package enum PowerCutPayload {
  /// Offsets of the header's fields.
  static let kindOffset = 0
  static let firstOffset = 1
  static let secondOffset = 5
  static let lengthOffset = 9
  /// Where the body starts.
  static let headerSize = 13

  /// What a payload is.
  package enum Kind: UInt8, Sendable {
    /// A journal record: appender and counter.
    case record = 1
    /// A journal snapshot: its sequence's low and high halves.
    case snapshot = 2
    /// A file's generation (atomic file, control): the generation and 0.
    case generation = 3
    /// An outbox item: its key's number and 0.
    case item = 4
  }

  /// The payload of `kind` for `first` and `second`, with a body of `length` bytes.
  package static func make(_ kind: Kind, _ first: UInt32, _ second: UInt32, length: Int)
    -> [UInt8]
  {
    var bytes = [kind.rawValue]
    for value in [first, second, UInt32(clamping: length)] {
      withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }
    return bytes + body(kind, first, second, length: length)
  }

  /// The header of an intact payload of `kind`: its two numbers; nil when the payload is of
  /// another kind, cut short, too long, or its body is not the one its header implies.
  package static func decode(_ bytes: [UInt8], as kind: Kind) -> (first: UInt32, second: UInt32)? {
    guard bytes.count >= headerSize, bytes[kindOffset] == kind.rawValue else { return nil }
    func field(_ offset: Int) -> UInt32 {
      (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[offset + $1]) << (8 * UInt32($1)) }
    }
    let first = field(firstOffset)
    let second = field(secondOffset)
    let length = Int(field(lengthOffset))
    guard bytes.count == headerSize + length,
      bytes[headerSize...].elementsEqual(body(kind, first, second, length: length))
    else { return nil }
    return (first, second)
  }

  /// A journal record's payload: appender `appender`'s `counter`-th record, 16 to 400 bytes.
  package static func record(appender: Int, counter: Int) -> [UInt8] {
    let first = UInt32(truncatingIfNeeded: appender)
    let second = UInt32(truncatingIfNeeded: counter)
    return make(.record, first, second, length: 16 + length(.record, first, second) % 384)
  }

  /// The snapshot the journal workload writes covering `sequence`: 1 to 8 KiB.
  package static func snapshot(through sequence: UInt64) -> [UInt8] {
    let low = UInt32(truncatingIfNeeded: sequence)
    let high = UInt32(truncatingIfNeeded: sequence >> 32)
    return make(.snapshot, low, high, length: 1024 + length(.snapshot, low, high) % 7168)
  }

  /// The contents of a file's generation `generation`: 64 bytes to 24 KiB, so a write spans
  /// several blocks.
  package static func generation(_ generation: Int) -> [UInt8] {
    let number = UInt32(truncatingIfNeeded: generation)
    return make(.generation, number, 0, length: 64 + length(.generation, number, 0) % 24_512)
  }

  /// An outbox item for key number `number`: 16 to 1 KiB.
  package static func item(_ number: Int) -> [UInt8] {
    let value = UInt32(truncatingIfNeeded: number)
    return make(.item, value, 0, length: 16 + length(.item, value, 0) % 1008)
  }

  /// A pseudo-random length seed for a payload.
  private static func length(_ kind: Kind, _ first: UInt32, _ second: UInt32) -> Int {
    Int(truncatingIfNeeded: seed(kind, first, second) >> 33)
  }

  /// The body: `length` bytes from SplitMix64.
  private static func body(_ kind: Kind, _ first: UInt32, _ second: UInt32, length: Int)
    -> [UInt8]
  {
    SplitMix64.bytes(count: length, seed: seed(kind, first, second))
  }

  private static func seed(_ kind: Kind, _ first: UInt32, _ second: UInt32) -> UInt64 {
    SplitMix64.mix(0x50_4354, Int(kind.rawValue), Int(first), Int(second))
  }
}
