import StoicTelemetry

/// The log call of the log scenarios: a 60-byte message (one of a few, cycled), a label and
/// three metadata pairs, as an app's logger passes them.
struct LogLine: Sendable {
  let label = "bench.http"
  let messages: [String]
  let metadata: LogMetadata = [
    "request-id": .string("9f3c2a71e4b8d605"), "route": .string("/api/v1/orders"),
    "user": .string("u-48213"),
  ]
  let source = "Bench"

  init() {
    let templates = [
      "request served in 12 ms with status 200 for the order listing",
      "cache miss for order 8812, fetched from the primary database",
      "retrying upstream call after a timeout of 250 ms (attempt 2)",
      "session refreshed for the user, token expires in 3600 seconds",
    ]
    // Each message exactly 60 bytes.
    messages = templates.map { text in
      let bytes = Array(text.utf8.prefix(60))
      return String(
        decoding: bytes + Array(repeating: UInt8(ascii: "."), count: 60 - bytes.count),
        as: UTF8.self)
    }
  }

  func message(_ index: Int) -> String { messages[index % messages.count] }

  /// A 60-byte message that ends with `sequence` (10 digits), so that a receiver can tell
  /// which log call a record came from.
  func message(sequence: Int) -> String {
    let digits = String(sequence)
    let padded = String(repeating: "0", count: max(0, 10 - digits.count)) + digits
    return String(message(sequence).prefix(45)) + " seq " + padded
  }

  /// The sequence a ``message(sequence:)`` ends with, found in `text` (a message or a line
  /// that holds one).
  static func sequence(in text: Substring) -> Int? {
    guard let range = text.range(of: " seq ") else { return nil }
    return Int(text[range.upperBound...].prefix(10))
  }
}
