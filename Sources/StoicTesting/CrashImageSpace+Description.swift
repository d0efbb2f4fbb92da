extension CrashImageSpace {
  /// Groups with at most this many pending operations list every one of them.
  static let verboseGroupLimit = 8

  /// A replayable description: per directory and file, its pending operations (numbered from
  /// 1, in order) and what the crash did to each: lost, kept, torn after so many bytes, or
  /// replaced by garbage from a SplitMix64 seed.
  ///
  /// Small groups list every operation (`op 2 write 5 bytes at 0 torn after 3 of 5 bytes`);
  /// larger ones list the kept operations as ranges, then the torn and garbled ones, and say
  /// the rest were lost.
  func describe(_ choices: [Choice]) -> String {
    guard !slots.isEmpty else { return "durable state (nothing pending)" }
    var parts: [String] = []
    for group in groups {
      let entries =
        group.slots.count <= CrashImageSpace.verboseGroupLimit
        ? verboseEntries(group, choices) : compactEntries(group, choices)
      parts.append("\(group.label): " + entries.joined(separator: ", "))
    }
    return parts.joined(separator: "; ")
  }

  /// Every operation of the group with its verdict.
  private func verboseEntries(_ group: Group, _ choices: [Choice]) -> [String] {
    group.slots.map { position in
      let number = position - group.slots.lowerBound + 1
      return "op \(number) \(operation(slots[position])) \(verdict(choices[position], position))"
    }
  }

  /// `N pending`, the kept operations as ranges, each torn or garbled operation, `rest lost`.
  private func compactEntries(_ group: Group, _ choices: [Choice]) -> [String] {
    var kept: [String] = []
    var damaged: [String] = []
    var position = group.slots.lowerBound
    while position < group.slots.upperBound {
      let number = position - group.slots.lowerBound + 1
      switch choices[position] {
      case .kept:
        var end = position + 1
        while end < group.slots.upperBound && choices[end] == .kept { end += 1 }
        let last = end - group.slots.lowerBound
        kept.append(last == number ? "\(number)" : "\(number)-\(last)")
        position = end
        continue
      case .torn, .garbage:
        let slot = slots[position]
        damaged.append("op \(number) \(operation(slot)) \(verdict(choices[position], position))")
      case .lost:
        break
      }
      position += 1
    }
    var entries = ["\(group.slots.count) pending"]
    entries.append(kept.isEmpty ? "none kept" : "kept " + kept.joined(separator: " "))
    entries += damaged
    entries.append("rest lost")
    return entries
  }

  /// `lost`, `kept`, `torn after 3 of 5 bytes`, `garbage (SplitMix64 seed 0x…)`.
  private func verdict(_ choice: Choice, _ position: Int) -> String {
    switch choice {
    case .lost: return "lost"
    case .kept: return "kept"
    case .torn(let landed):
      return "torn after \(landed) of \(slots[position].writeLength ?? 0) bytes"
    case .garbage:
      return "garbage (SplitMix64 seed 0x\(String(slots[position].garbageSeed, radix: 16)))"
    }
  }
}
