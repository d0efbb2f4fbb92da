import Testing

@testable import StoicStore
@testable import StoicTesting

/// A store that creates its own directory makes that directory's name durable: the parent of
/// every level it created is synced before anything in it is claimed durable.
@Suite("A store's new directory survives a power cut")
struct StoreDirectoryCrashTests {
  /// Three levels that do not exist yet.
  static let directory = "/srv/app/spool"

  @Test("a journal created from no directory at all keeps every durable append, at every crash")
  func journalFromNoDirectory() {
    let options = JournalOptions(syncPolicy: .never)
    let report = CrashExplorer(budget: JournalTestSupport.budget(crashRecovery: false)).explore(
      operation: { disk, recorder in
        let journal = try Journal.open(
          directory: Self.directory, fileSystem: disk, options: options)
        for sequence in UInt64(1)...2 {
          try journal.append(JournalTestSupport.payload(sequence), durable: true)
          recorder.acknowledge(String(sequence))
        }
        try journal.close()
      },
      recover: { disk in
        let journal = try Journal.open(
          directory: Self.directory, fileSystem: disk, options: options)
        defer { try? journal.close() }
        return try journal.records()
      },
      check: { records, context in
        let found = records.map(\.sequence)
        for acknowledged in context.acknowledged.compactMap(UInt64.init) {
          try context.require(
            found.contains(acknowledged),
            "acknowledged record \(acknowledged) is missing (found \(found))")
        }
        try context.require(
          found == found.indices.map { UInt64($0 + 1) }, "records out of order: \(found)")
      })
    #expect(report.passed, "\(report)")
    #expect(report.crashPoints > 5)
  }

  @Test("createDirectoryDurably syncs the parent of each level it made, and nothing else")
  func syncsEachCreatedLevel() throws {
    let disk = SimulatedFileSystem()
    try disk.createDirectoryDurably("/srv/app/spool/")
    #expect(disk.allDirectories() == [".", "/", "/srv", "/srv/app", "/srv/app/spool"])
    #expect(disk.pendingOperationCount == 0, "every level made is durable")
    #expect(disk.crashedDurableOnly().allDirectories() == disk.allDirectories())
    #expect(disk.operationCount == 4, "one mkdir -p and three directory syncs")

    // An existing directory: nothing made, nothing synced, nothing above it opened.
    try disk.createDirectoryDurably("/srv/app/spool")
    #expect(disk.operationCount == 4)
    // One new level under an existing one: only its parent is synced.
    try disk.createDirectoryDurably("/srv/app/other")
    #expect(disk.operationCount == 6)
    #expect(disk.pendingOperationCount == 0)

    // A relative path, made from the working directory.
    try disk.createDirectoryDurably("data/store")
    #expect(disk.pendingOperationCount == 0)
    #expect(disk.crashedDurableOnly().allDirectories().contains("data/store"))

    // A file in the way is refused, and nothing is synced.
    disk.setDurableContents("/srv/file", [1])
    let before = disk.operationCount
    #expect(throws: StoreError.self) { try disk.createDirectoryDurably("/srv/file/sub") }
    #expect(disk.operationCount == before)
  }

  @Test("createDirectoryDurably on the real disk: nested levels, again, and a file in the way")
  func onThePosixDisk() throws {
    try PosixScratchDirectory.with { scratch in
      let fileSystem = PosixFileSystem()
      let nested = StorePath.join(scratch, "a/b/c")
      try fileSystem.createDirectoryDurably(nested)
      #expect(try fileSystem.list(StorePath.join(scratch, "a/b")) == ["c"])
      try fileSystem.createDirectoryDurably(nested + "/")
      let file = StorePath.join(scratch, "file")
      try fileSystem.writeWholeFileForTest(file, [1])
      let refused = try #require(throws: StoreError.self) {
        try fileSystem.createDirectoryDurably(StorePath.join(file, "sub"))
      }
      #expect(refused.code == .alreadyExists || refused.code == .notFound, "\(refused)")
    }
  }
}

extension FileSystem {
  /// Creates `path` holding `bytes` (not synced).
  fileprivate func writeWholeFileForTest(_ path: String, _ bytes: [UInt8]) throws(StoreError) {
    let handle = try open(path, .createExclusive)
    defer { try? close(handle) }
    try write(handle, bytes, at: 0)
  }
}
