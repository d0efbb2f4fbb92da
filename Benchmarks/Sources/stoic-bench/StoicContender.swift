import StoicStore

/// The journal under test, opened with its default options and a chosen sync policy.
enum StoicContender {
  static func open(
    _ directory: String, policy: SyncPolicy, compress: Bool = true,
    fileSystem: any FileSystem = PosixFileSystem(), events: EventSink = .discard
  ) throws -> Journal {
    try Journal.open(
      directory: directory, fileSystem: fileSystem,
      options: JournalOptions(syncPolicy: policy, compressSealedSegments: compress),
      events: events)
  }

  /// One `append` per record into a new journal in `directory`; closing is not timed.
  static func appendPerRecord(
    _ workload: Workload, policy: SyncPolicy, in directory: String, latencies: Bool = false
  ) throws -> RunSample {
    let journal = try open(directory + "/journal", policy: policy)
    let sample = try appendPerRecord(workload, to: journal, latencies: latencies)
    try journal.close()
    return sample
  }

  /// One `append` per record into an open journal.
  static func appendPerRecord(_ workload: Workload, to journal: Journal, latencies: Bool = false)
    throws -> RunSample
  {
    try RunSample.timing(count: workload.count, latencies: latencies) { index in
      try journal.append(workload.payload(index))
    }
  }

  /// One run of ``appendPerRecord(_:policy:in:latencies:)`` through a ``TimingFileSystem``,
  /// for the breakdown printed under a figure (not one of the measured runs).
  static func profiledAppendPerRecord(
    _ workload: Workload, policy: SyncPolicy, in directory: String
  )
    throws -> TimeBreakdown
  {
    let profile = FileSystemProfile()
    let journal = try open(
      directory + "/profiled", policy: policy, fileSystem: TimingFileSystem(profile: profile))
    profile.reset()
    let sample = try appendPerRecord(workload, to: journal)
    let totals = profile.totals
    try journal.close()
    return TimeBreakdown(wallSeconds: sample.seconds, records: sample.records, totals: totals)
  }

  /// Fills a journal with `count` records of the workload, in batches, without syncing until
  /// the close; returns the payload bytes written.
  @discardableResult
  static func fill(_ journal: Journal, with workload: Workload, batch: Int = 1024) throws -> Int {
    var bytes = 0
    var index = 0
    while index < workload.count {
      let end = min(workload.count, index + batch)
      let payloads = (index..<end).map { workload.payload($0) }
      bytes += payloads.reduce(0) { $0 + $1.count }
      try journal.append(batch: payloads)
      index = end
    }
    return bytes
  }
}
