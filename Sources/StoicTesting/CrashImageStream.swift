/// The images of one crash point, one at a time, in the order ``CrashImageSpace/forEachImage(limit:seed:_:)``
/// gives them: what lets the explorer take the first image of every crash point before the
/// second of any.
///
/// When every combination (with every tear point of every write) fits in the limit, all of
/// them. Otherwise every combination with a few tear points per write (byte 1, the middle,
/// the last byte, and 512 and 4096 byte sector boundaries) when those fit, else the
/// durable-only and the everything-kept image; then, up to the limit, a sample drawn from the
/// seed with tears at random bytes. Images equal to one the stream already gave are skipped,
/// so every image it gives is a distinct disk; its index (1 for the first) and the seed name
/// it for a replay.
struct CrashImageStream {
  /// What the stream takes its next choices from.
  private enum Phase {
    /// Every combination of `options`, in mixed-radix order; `sampleAfter` says whether the
    /// sample follows.
    case combinations(options: [[CrashImageSpace.Choice]], digits: [Int], sampleAfter: Bool)
    /// The durable-only image (0), then the everything-kept one (1), then the sample.
    case extremes(next: Int)
    /// The seeded sample, after `attempts` draws.
    case sample(attempts: Int)
    case done
  }

  let space: CrashImageSpace
  /// The most images the stream gives.
  let limit: Int
  private var phase: Phase
  private var generator: SplitMix64
  private var seen = Set<Int>()
  /// The images given so far: the index of the last one.
  private(set) var emitted = 0

  /// The images of `space`, at most `limit` of them (at least 1), sampled from `seed`.
  init(space: CrashImageSpace, limit: Int, seed: UInt64) {
    self.space = space
    self.limit = max(1, limit)
    generator = SplitMix64(seed: seed)
    if space.combinations(everyTear: true) <= self.limit {
      let options = space.slots.map { space.options($0, everyTear: true) }
      phase = .combinations(
        options: options, digits: [Int](repeating: 0, count: options.count), sampleAfter: false)
    } else if space.combinations(everyTear: false) <= self.limit {
      // Every combination with the representative tear points; the rest of the budget then
      // goes to random tear points, so a larger budget explores more of them.
      let options = space.slots.map { space.options($0, everyTear: false) }
      phase = .combinations(
        options: options, digits: [Int](repeating: 0, count: options.count), sampleAfter: true)
    } else {
      phase = .extremes(next: 0)
    }
  }

  /// The next distinct image, or nil when the stream has given its limit or run out.
  mutating func next() -> CrashImage? {
    while emitted < limit, let choices = nextChoices() {
      let disk = space.materialize(choices)
      let diskHash = CrashImage.diskHash(files: disk.files, directories: disk.directories)
      guard seen.insert(diskHash).inserted else { continue }
      emitted += 1
      return CrashImage(
        files: disk.files, directories: disk.directories,
        describer: LazyText { [space] in space.describe(choices) }, diskHash: diskHash)
    }
    phase = .done
    return nil
  }

  /// The next choices to materialize, or nil when there are none left.
  private mutating func nextChoices() -> [CrashImageSpace.Choice]? {
    switch phase {
    case .combinations(let options, var digits, let sampleAfter):
      let choices = digits.indices.map { options[$0][digits[$0]] }
      if Self.advance(&digits, radices: options.map(\.count)) {
        phase = .combinations(options: options, digits: digits, sampleAfter: sampleAfter)
      } else {
        phase = sampleAfter ? .sample(attempts: 0) : .done
      }
      return choices
    case .extremes(let next):
      phase = next == 0 ? .extremes(next: 1) : .sample(attempts: 0)
      return space.slots.map { _ in next == 0 ? .lost : .kept }
    case .sample(let attempts):
      // Draws can repeat an image; four draws per image of the limit bound the search.
      guard attempts < limit * 4 else { return nil }
      phase = .sample(attempts: attempts + 1)
      return space.sample(inOrder: attempts % 2 == 0, using: &generator)
    case .done:
      return nil
    }
  }

  /// Steps mixed-radix `digits` to the next combination; false after the last one.
  private static func advance(_ digits: inout [Int], radices: [Int]) -> Bool {
    var position = digits.count - 1
    while position >= 0 {
      digits[position] += 1
      if digits[position] < radices[position] { return true }
      digits[position] = 0
      position -= 1
    }
    return false
  }
}
