/// One thing a workload's library call claimed durable when it returned: a line of the
/// acknowledgement file the workload writes outside the mount.
///
/// The line format is a letter and its values, separated by spaces:
/// `a <sequence> <appender> <counter>`, `d <sequence>`, `s <sequence>`, `p <sequence>`,
/// `e <key>`, `x <key>`, `g <generation>`.
package enum PowerCutClaim: Sendable, Hashable {
  /// A journal record is durable at `sequence`; appender `appender` wrote it as its
  /// `counter`-th record (`a`).
  case record(sequence: UInt64, appender: Int, counter: Int)
  /// Every journal record up to `sequence` is durable (`d`).
  case durableThrough(UInt64)
  /// A journal snapshot covering `sequence` is durable (`s`).
  case snapshot(UInt64)
  /// The journal's records up to `sequence` are durably dropped (`p`).
  case dropped(UInt64)
  /// An outbox entry is durably enqueued under `key` (`e`).
  case enqueued(String)
  /// An outbox entry is durably acknowledged (delivered) and has left the outbox (`x`).
  case retired(String)
  /// A file's generation `generation` is durably written (`g`).
  case generation(Int)

  /// The line, without its newline.
  package var line: String {
    switch self {
    case .record(let sequence, let appender, let counter): "a \(sequence) \(appender) \(counter)"
    case .durableThrough(let sequence): "d \(sequence)"
    case .snapshot(let sequence): "s \(sequence)"
    case .dropped(let sequence): "p \(sequence)"
    case .enqueued(let key): "e \(key)"
    case .retired(let key): "x \(key)"
    case .generation(let generation): "g \(generation)"
    }
  }

  /// Parses a line (without its newline); nil for anything else.
  package init?(line: Substring) {
    let fields = line.split(separator: " ")
    guard let letter = fields.first else { return nil }
    func number(_ index: Int) -> UInt64? {
      index < fields.count ? UInt64(fields[index]) : nil
    }
    switch (letter, fields.count) {
    case ("a", 4):
      guard let sequence = number(1), let appender = number(2), let counter = number(3),
        appender <= UInt64(Int.max), counter <= UInt64(Int.max)
      else { return nil }
      self = .record(sequence: sequence, appender: Int(appender), counter: Int(counter))
    case ("d", 2):
      guard let sequence = number(1) else { return nil }
      self = .durableThrough(sequence)
    case ("s", 2):
      guard let sequence = number(1) else { return nil }
      self = .snapshot(sequence)
    case ("p", 2):
      guard let sequence = number(1) else { return nil }
      self = .dropped(sequence)
    case ("e", 2):
      self = .enqueued(String(fields[1]))
    case ("x", 2):
      self = .retired(String(fields[1]))
    case ("g", 2):
      guard let generation = number(1), generation <= UInt64(Int.max) else { return nil }
      self = .generation(Int(generation))
    default:
      return nil
    }
  }
}
