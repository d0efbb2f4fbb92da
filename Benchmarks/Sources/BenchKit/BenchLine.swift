/// The log line every contender of the log scenarios writes, as plain text: a label, four
/// messages of exactly 60 bytes taken in turn, three metadata pairs and a source. The
/// pipeline's messages carry their sequence (``message(sequence:)``), which the receiving end
/// reads back (``sequence(in:)``) to count what arrived.
public struct BenchLine: Sendable {
  /// The logger's label.
  public let label = "bench.http"
  /// The messages, each 60 bytes.
  public let messages: [String]
  /// The metadata, three string pairs.
  public let metadataPairs = [
    ("request-id", "9f3c2a71e4b8d605"), ("route", "/api/v1/orders"), ("user", "u-48213"),
  ]
  /// The source (swift-log's module name).
  public let source = "Bench"

  /// The line.
  public init() {
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

  /// Message `index`, the four in turn.
  public func message(_ index: Int) -> String { messages[index % messages.count] }

  /// Message `sequence` with ` seq ` and the sequence in ten digits in its last 15 bytes.
  public func message(sequence: Int) -> String {
    let digits = String(sequence)
    let padded = String(repeating: "0", count: max(0, 10 - digits.count)) + digits
    return String(message(sequence).prefix(45)) + " seq " + padded
  }

  /// The sequence a ``message(sequence:)`` carries, if `text` is one.
  public static func sequence(in text: Substring) -> Int? {
    guard let range = text.range(of: " seq ") else { return nil }
    return Int(text[range.upperBound...].prefix(10))
  }
}
