import StoicStore
import StoicTesting

@testable import StoicTelemetry

/// A generated log journal of many segments on a simulated disk, for the query tests.
struct QueryFixture {
  static let logs = "/data/spool/logs"
  static let summaryDirectory = "/data/spool/summaries"
  static let labels = ["api", "db", "worker", "stoic.spool", "auth"]

  let disk: SimulatedFileSystem
  /// Every record appended, by sequence.
  let records: [LogRecord]

  /// Appends `count` random records (fixed `seed`) in segments of about 4 KiB, the sealed
  /// segments of the first half compressed, then closes the journal.
  static func make(
    seed: UInt64, count: Int = 1500, on disk: SimulatedFileSystem = SimulatedFileSystem()
  ) throws -> QueryFixture {
    var random = SplitMix64(seed: seed)
    // The first half compressed as each segment seals, the second left as sealed `.log`s.
    func open(compressing: Bool) throws(StoreError) -> Journal {
      try Journal.open(
        directory: logs, fileSystem: disk,
        options: JournalOptions(
          syncPolicy: .never, segmentSize: 4 << 10, compressSealedSegments: compressing,
          backgroundMaintenance: false, mappedAppends: false))
    }
    var journal = try open(compressing: true)
    var records: [LogRecord] = []
    var time: Int64 = 1_700_000_000_000_000_000
    // Bursts: a run of records shares a level floor and a label, so segments differ.
    var burstLevel = LogLevel.info
    var burstLabel = labels[0]
    for index in 0..<count {
      if index % 40 == 0 {
        burstLevel = LogLevel.allCases[random.below(LogLevel.allCases.count)]
        burstLabel = labels[random.below(labels.count)]
      }
      // Mostly forward in time, sometimes a step back (a clock change).
      time += Int64(random.below(2_000_000_000)) - (random.below(50) == 0 ? 30_000_000_000 : 0)
      let level =
        random.below(4) == 0
        ? LogLevel.allCases[random.below(LogLevel.allCases.count)] : burstLevel
      let record = LogRecord(
        timeNanoseconds: time, level: level,
        label: random.below(10) == 0 ? labels[random.below(labels.count)] : burstLabel,
        message: "request \(random.below(100)) took \(random.below(1000)) ms",
        metadata: randomMetadata(&random), source: "Source", file: "File.swift",
        function: "handle()", line: UInt(random.below(500)))
      let sequence = try journal.append(LogRecordFormat.encode(record))
      var stored = record
      stored.sequence = sequence
      records.append(stored)
      if index == count / 2 {
        try journal.close()
        journal = try open(compressing: false)
      }
    }
    try journal.close()
    return QueryFixture(disk: disk, records: records)
  }

  static func randomMetadata(_ random: inout SplitMix64) -> LogMetadata {
    var metadata: LogMetadata = [:]
    if random.below(2) == 0 { metadata["user"] = .string("u\(random.below(5))") }
    if random.below(2) == 0 {
      metadata["http"] = .dictionary([
        "status": .stringConvertible(["200", "404", "500"][random.below(3)]),
        "route": .dictionary(["name": .string(["home", "pay"][random.below(2)])]),
      ])
    }
    if random.below(3) == 0 { metadata["request.id"] = .string("r\(random.below(4))") }
    if random.below(4) == 0 { metadata["tags"] = .array([.string("t\(random.below(3))")]) }
    return metadata
  }

  /// The journal, opened for reading.
  func open() throws(StoreError) -> Journal {
    try Journal.open(
      directory: Self.logs, fileSystem: disk, options: LogQuery.readingOptions())
  }

  var summaries: SegmentSummaryStore {
    SegmentSummaryStore(directory: Self.summaryDirectory, fileSystem: disk)
  }

  /// The sequences `query` returns by brute force: every record, checked one by one.
  func bruteForce(_ query: LogQuery) -> [UInt64] {
    let all = records.filter(query.matches).map(\.sequence)
    return Array(all.prefix(query.limit ?? .max))
  }

  /// A random query over the fixture's records.
  func randomQuery(_ random: inout SplitMix64) -> LogQuery {
    var query = LogQuery()
    let times = records.map(\.timeNanoseconds)
    let low = times.min() ?? 0
    let high = times.max() ?? 0
    func randomTime() -> Int64 {
      low + Int64(truncatingIfNeeded: random.next() % UInt64(max(1, high - low + 2)))
    }
    if random.below(2) == 0 {
      query.minimumLevel = LogLevel.allCases[random.below(LogLevel.allCases.count)]
    }
    if random.below(2) == 0 { query.since = randomTime() }
    if random.below(2) == 0 { query.until = randomTime() }
    if random.below(3) == 0 { query.label = Self.labels[random.below(Self.labels.count)] }
    if random.below(3) == 0 {
      let conditions = [
        ("http.status", "500"), ("http.route.name", "pay"), ("user", "u1"),
        ("request.id", "r2"), ("tags", "t1"), ("http", "200"), ("missing.key", "x"),
      ]
      let (key, value) = conditions[random.below(conditions.count)]
      query.conditions = [LogMetadataCondition(key: key, value: value)]
    }
    if random.below(4) == 0 { query.text = ["took 1", "request 4", "nothing"][random.below(3)] }
    if random.below(3) == 0 { query.limit = random.below(30) }
    return query
  }
}
