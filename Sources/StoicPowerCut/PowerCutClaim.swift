/// One thing a workload's library call claimed durable when it returned: a line of the
/// acknowledgement file the workload writes outside the mount.
///
/// The line format is a letter and its values, separated by spaces:
/// `a <sequence> <appender> <counter>`, `d <sequence>`, `s <sequence>`, `p <sequence>`,
/// `e <key>`, `x <key>`, `g <generation>`, `w <sequence> <appender> <counter>`, `m <round>`,
/// `k <key> <counter>,<counter>,…` (`-` for none).
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
  /// A log record below the durable level was handed to the spool at `sequence`: not claimed
  /// durable (a later ``durableThrough(_:)`` may cover it), only which record it is (`w`).
  case written(sequence: UInt64, appender: Int, counter: Int)
  /// The metrics of round `round` are durably flushed (`m`).
  case metricsRound(Int)
  /// The receiver stored the batch `key` holding the log records numbered `counters`, before it
  /// acknowledged it (`k`).
  case delivered(key: String, counters: [Int])

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
    case .written(let sequence, let appender, let counter): "w \(sequence) \(appender) \(counter)"
    case .metricsRound(let round): "m \(round)"
    case .delivered(let key, let counters):
      "k \(key) " + (counters.isEmpty ? "-" : counters.map(String.init).joined(separator: ","))
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
    case ("a", 4), ("w", 4):
      guard let sequence = number(1), let appender = number(2), let counter = number(3),
        appender <= UInt64(Int.max), counter <= UInt64(Int.max)
      else { return nil }
      self =
        letter == "a"
        ? .record(sequence: sequence, appender: Int(appender), counter: Int(counter))
        : .written(sequence: sequence, appender: Int(appender), counter: Int(counter))
    case ("m", 2):
      guard let round = number(1), round <= UInt64(Int.max) else { return nil }
      self = .metricsRound(Int(round))
    case ("k", 3):
      var counters: [Int] = []
      if fields[2] != "-" {
        for text in fields[2].split(separator: ",") {
          guard let counter = Int(text), counter >= 0 else { return nil }
          counters.append(counter)
        }
      }
      self = .delivered(key: String(fields[1]), counters: counters)
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
