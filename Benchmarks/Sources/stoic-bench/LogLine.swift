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
}
