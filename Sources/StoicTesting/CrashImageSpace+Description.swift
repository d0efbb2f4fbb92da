extension CrashImageSpace {
  /// A replayable description: per file and directory, each pending operation (numbered from
  /// 1) and what the crash did to it; runs of lost or kept operations are folded.
  func describe(_ choices: [Choice]) -> String {
    guard !slots.isEmpty else { return "durable state (nothing pending)" }
    var parts: [String] = []
    for group in groups {
      var entries: [String] = []
      var position = group.slots.lowerBound
      while position < group.slots.upperBound {
        let choice = choices[position]
        if choice == .lost || choice == .kept {
          var end = position + 1
          while end < group.slots.upperBound && choices[end] == choice { end += 1 }
          let first = position - group.slots.lowerBound + 1
          let last = end - group.slots.lowerBound
          let verb = choice == .kept ? "kept" : "lost"
          if first == last {
            entries.append("op \(first) \(operation(slots[position])) \(verb)")
          } else {
            entries.append("ops \(first)-\(last) \(verb)")
          }
          position = end
        } else {
          let number = position - group.slots.lowerBound + 1
          let slot = slots[position]
          let what: String
          switch choice {
          case .torn(let landed):
            what = "torn after \(landed) of \(slot.writeLength ?? 0) bytes"
          case .garbage:
            let seed = "0x" + String(slot.garbageSeed, radix: 16)
            what = "garbage (SplitMix64 seed \(seed))"
          case .lost, .kept:
            what = ""
          }
          entries.append("op \(number) \(operation(slot)) \(what)")
          position += 1
        }
      }
      parts.append("\(group.label): " + entries.joined(separator: ", "))
    }
    return parts.joined(separator: "; ")
  }
}
