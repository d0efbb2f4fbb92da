/// Generates a realistic application log: JSON lines with increasing timestamps, weighted
/// levels, a few repeated labels and metadata keys, messages from templates with varying
/// values, and random request and trace identifiers (the part that does not compress).
struct LogCorpus {
  private var random: BenchRandom
  private var clock: UInt64 = 1_795_000_000_000_000

  init(seed: UInt64) {
    random = BenchRandom(seed: seed)
  }

  private static let levels: [(name: String, weight: Int)] = [
    ("trace", 5), ("debug", 25), ("info", 50), ("notice", 5), ("warning", 10), ("error", 4),
    ("critical", 1),
  ]
  private static let labels = [
    "app.http.server", "app.http.client", "app.db.pool", "app.cache", "app.auth", "app.jobs",
    "app.billing", "app.search", "app.mailer", "app.metrics",
  ]
  private static let routes = [
    "/v1/orders", "/v1/users", "/v1/carts", "/v1/search", "/v1/payments", "/healthz",
    "/v1/sessions", "/v1/products",
  ]
  private static let statuses = [200, 200, 200, 201, 204, 304, 400, 404, 500]
  private static let methods = ["GET", "GET", "GET", "POST", "PUT", "DELETE"]
  private static let regions = ["eu-west-1", "eu-central-1", "us-east-1", "ap-south-1"]
  private static let errors = [
    "connection reset by peer", "deadline exceeded", "no such host", "pool exhausted",
    "invalid token", "constraint violation on orders_pkey",
  ]

  /// One log line, 150 to 400 bytes.
  mutating func nextLine() -> [UInt8] {
    clock += UInt64.random(in: 1...40_000, using: &random)
    var fields: [(String, String)] = [
      ("ts", timestamp()), ("level", level()), ("label", pick(Self.labels)), ("msg", message()),
      ("request_id", hex(16)),
    ]
    for extra in 0..<6 where Bool.random(using: &random) {
      fields.append(extraField(extra))
    }
    var line = "{"
    for (index, field) in fields.enumerated() {
      if index > 0 { line += "," }
      line += "\"\(field.0)\":\"\(field.1)\""
    }
    line += "}\n"
    return Array(line.utf8)
  }

  /// A record of exactly `size` bytes: a log line, extended or cut to that length.
  mutating func record(size: Int) -> [UInt8] {
    var bytes = nextLine()
    while bytes.count < size {
      bytes.append(contentsOf: nextLine())
    }
    return Array(bytes.prefix(size))
  }

  /// `count` distinct records of `size` bytes.
  static func records(count: Int, size: Int, seed: UInt64 = 1) -> [[UInt8]] {
    var corpus = LogCorpus(seed: seed)
    return (0..<count).map { _ in corpus.record(size: size) }
  }

  /// Log lines adding up to at least `bytes`.
  static func lines(totalBytes bytes: Int, seed: UInt64 = 2) -> [[UInt8]] {
    var corpus = LogCorpus(seed: seed)
    var lines: [[UInt8]] = []
    var total = 0
    while total < bytes {
      let line = corpus.nextLine()
      total += line.count
      lines.append(line)
    }
    return lines
  }

  private mutating func extraField(_ index: Int) -> (String, String) {
    switch index {
    case 0: ("user_id", "u-\(Int.random(in: 1...50_000, using: &random))")
    case 1: ("region", pick(Self.regions))
    case 2: ("trace_id", hex(32))
    case 3: ("attempt", String(Int.random(in: 1...4, using: &random)))
    case 4: ("bytes", String(Int.random(in: 0...2_000_000, using: &random)))
    default: ("tenant", "tenant-\(Int.random(in: 1...200, using: &random))")
    }
  }

  private mutating func timestamp() -> String {
    let seconds = clock / 1_000_000
    let micros = clock % 1_000_000
    let day = seconds % 86_400
    let time = [day / 3600, (day % 3600) / 60, day % 60].map { pad(Int($0), 2) }
    return "2026-11-29T\(time.joined(separator: ":")).\(pad(Int(micros), 6))Z"
  }

  private mutating func level() -> String {
    var roll = Int.random(in: 0..<100, using: &random)
    for level in Self.levels {
      if roll < level.weight { return level.name }
      roll -= level.weight
    }
    return "info"
  }

  private mutating func message() -> String {
    switch Int.random(in: 0..<6, using: &random) {
    case 0, 1:
      let status = Self.statuses[Int.random(in: 0..<Self.statuses.count, using: &random)]
      let route = pick(Self.routes)
      let id = Int.random(in: 1...99_999, using: &random)
      let millis = Double(Int.random(in: 1...25_000, using: &random)) / 10
      return "\(pick(Self.methods)) \(route)/\(id) \(status) in \(millis) ms"
    case 2:
      return "query on table orders took \(Int.random(in: 1...900, using: &random)) ms, "
        + "\(Int.random(in: 0...5_000, using: &random)) rows"
    case 3:
      return "cache \(Bool.random(using: &random) ? "hit" : "miss") for key "
        + "product:\(Int.random(in: 1...20_000, using: &random))"
    case 4:
      return "job \(hex(8)) finished: \(Int.random(in: 0...300, using: &random)) items"
    default:
      return "upstream call failed: \(pick(Self.errors)), retrying in "
        + "\(Int.random(in: 10...5_000, using: &random)) ms"
    }
  }

  private mutating func pick(_ values: [String]) -> String {
    values[Int.random(in: 0..<values.count, using: &random)]
  }

  private mutating func hex(_ digits: Int) -> String {
    var text = ""
    while text.count < digits {
      text += String(random.next(), radix: 16)
    }
    return String(text.prefix(digits))
  }

  private func pad(_ value: Int, _ width: Int) -> String {
    let text = String(value)
    return String(repeating: "0", count: max(0, width - text.count)) + text
  }
}
