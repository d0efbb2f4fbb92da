import StoicTelemetry

/// The log records the telemetry workloads write, each derived from its writer and counter so
/// that whatever is read back after a cut proves itself: a torn, mixed or misplaced record does
/// not match what its own metadata says it is.
///
/// A record of writer `appender` numbered `counter` has the label `app`, the level
/// ``level(counter:)``, the metadata `appender` and `counter`, and a message of 16 to 400
/// payload bytes in hexadecimal (``PowerCutPayload/record(appender:counter:)``).
package enum PowerCutLogRecord {
  /// The label of the workloads' records.
  static let label = "app"

  /// The level of record `counter`: every third is at the durable level (`error`), the others
  /// below it.
  static func level(counter: Int) -> LogLevel {
    switch counter % 3 {
    case 0: .error
    case 1: .info
    default: .debug
    }
  }

  /// The message of a record.
  package static func message(appender: Int, counter: Int) -> String {
    let hexDigits = Array("0123456789abcdef".utf8)
    var text = Array("record \(appender) \(counter) ".utf8)
    for byte in PowerCutPayload.record(appender: appender, counter: counter) {
      text.append(hexDigits[Int(byte >> 4)])
      text.append(hexDigits[Int(byte & 0xF)])
    }
    return String(decoding: text, as: UTF8.self)
  }

  /// Logs record `counter` of `appender`; returns its sequence, or nil when it was dropped.
  static func log(_ logs: LogSpool, appender: Int, counter: Int) -> UInt64? {
    logs.log(
      level: level(counter: counter), label: label,
      message: message(appender: appender, counter: counter),
      metadata: [
        "appender": .stringConvertible(String(appender)),
        "counter": .stringConvertible(String(counter)),
      ], source: "powercut", file: "PowerCutLogRecord.swift", function: "log", line: 1)
  }

  /// The writer and counter of an intact record of the workloads: nil for another label (the
  /// spool's own events); a record that is not the one its metadata names is `.mixed`.
  static func identify(_ record: LogRecord) -> Identity {
    guard record.label == label else { return .other }
    guard case .stringConvertible(let appenderText)? = record.metadata["appender"],
      case .stringConvertible(let counterText)? = record.metadata["counter"],
      let appender = Int(appenderText), let counter = Int(counterText),
      record.level == level(counter: counter),
      record.message == message(appender: appender, counter: counter),
      record.metadata.count == 2, record.source == "powercut"
    else { return .mixed }
    return .app(appender: appender, counter: counter)
  }

  /// What a record read back is.
  enum Identity: Equatable {
    /// A workload's record, intact.
    case app(appender: Int, counter: Int)
    /// A record of another label: the spool's own events.
    case other
    /// A workload's record that is not intact.
    case mixed
  }

  /// The writer and counter a message of ``message(appender:counter:)`` names (without
  /// checking the rest), for the receiver of forwarded records.
  package static func numbers(inMessage message: String) -> (appender: Int, counter: Int)? {
    let fields = message.split(separator: " ", maxSplits: 3)
    guard fields.count == 4, fields[0] == "record", let appender = Int(fields[1]),
      let counter = Int(fields[2]), message == Self.message(appender: appender, counter: counter)
    else { return nil }
    return (appender, counter)
  }
}
