extension CrashImageSpace {
  /// Calls `body` with up to `limit` distinct images, in ``CrashImageStream``'s order.
  func forEachImage(limit: Int, seed: UInt64, _ body: (CrashImage) -> Void) {
    var stream = CrashImageStream(space: self, limit: limit, seed: seed)
    while let image = stream.next() { body(image) }
  }

  /// The choices for one slot: lost, kept, and for a write its tear points and garbage.
  func options(_ slot: Slot, everyTear: Bool) -> [Choice] {
    guard let length = slot.writeLength, length > 0 else { return [.lost, .kept] }
    let tears = everyTear ? Array(1..<length) : CrashImageSpace.someTearPoints(length)
    return [.lost, .kept] + tears.map { .torn($0) } + [.garbage]
  }

  /// Byte 1, the middle, the last byte, and 512 and 4096 byte sector boundaries (the first and
  /// the last of each inside the write), sorted and within `1..<length`.
  static func someTearPoints(_ length: Int) -> [Int] {
    guard length > 1 else { return [] }
    var points: Set<Int> = [1, length / 2, length - 1]
    for sector in [512, 4096] {
      points.insert(sector)
      points.insert((length - 1) / sector * sector)
    }
    return points.filter { $0 > 0 && $0 < length }.sorted()
  }

  /// The number of combinations, saturating at `Int.max`, without building them.
  func combinations(everyTear: Bool) -> Int {
    var total = 1
    for slot in slots {
      var count = 2
      if let length = slot.writeLength, length > 0 {
        let tears =
          everyTear ? length - 1 : CrashImageSpace.someTearPoints(length).count
        count += tears + 1
      }
      let (product, overflow) = total.multipliedReportingOverflow(by: count)
      if overflow { return Int.max }
      total = product
    }
    return total
  }

  /// One random image. In order: per file and directory, a random prefix of its operations
  /// kept and the next one possibly torn or garbled (how a disk that writes back in order
  /// fails). Otherwise each operation independently lost half the time, else kept, torn at a
  /// random byte or garbled.
  func sample(inOrder: Bool, using generator: inout SplitMix64) -> [Choice] {
    var choices = [Choice](repeating: .lost, count: slots.count)
    for group in groups {
      if inOrder {
        let cut = group.slots.lowerBound + generator.below(group.slots.count + 1)
        for position in group.slots.lowerBound..<cut { choices[position] = .kept }
        if cut < group.slots.upperBound {
          choices[cut] = damaged(slots[cut], using: &generator) ?? .lost
        }
      } else {
        for position in group.slots {
          switch generator.below(8) {
          case 0..<4: choices[position] = .lost
          case 4..<6: choices[position] = .kept
          default: choices[position] = damaged(slots[position], using: &generator) ?? .kept
          }
        }
      }
    }
    return choices
  }

  /// A torn (random byte) or garbled version of a write, or nil half the time and for
  /// anything that cannot tear.
  private func damaged(_ slot: Slot, using generator: inout SplitMix64) -> Choice? {
    guard let length = slot.writeLength, length > 0 else { return nil }
    switch generator.below(4) {
    case 0 where length > 1: return .torn(1 + generator.below(length - 1))
    case 1: return .garbage
    default: return nil
    }
  }
}
