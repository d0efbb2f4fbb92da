import StoicStore
import StoicTesting
import Testing

/// The seed's AtomicFile invariant at every crash point: recovery finds exactly the old bytes
/// or exactly the new, never a mix and never nothing; once `write` returned, the new; a second
/// read agrees; the file can be written again.
@Suite("AtomicFile crash consistency")
struct AtomicFileCrashTests {
  static let path = "/data/file"

  struct Case: CustomTestStringConvertible, Sendable {
    var envelope: Bool
    var keepPrevious: Bool
    var existing: Bool
    var large: Bool
    var testDescription: String {
      "envelope=\(envelope) previous=\(keepPrevious) existing=\(existing) large=\(large)"
    }
  }

  static let cases: [Case] = [false, true].flatMap { envelope in
    [false, true].flatMap { keepPrevious in
      [false, true].flatMap { existing in
        [false, true].map { large in
          Case(envelope: envelope, keepPrevious: keepPrevious, existing: existing, large: large)
        }
      }
    }
  }

  static func payload(_ label: String, large: Bool) -> [UInt8] {
    let base = Array(label.utf8)
    guard large else { return base }
    return (0..<9000).map { base[$0 % base.count] &+ UInt8(truncatingIfNeeded: $0 / base.count) }
  }

  /// What a reader after the crash sees, twice, and whether it can write again.
  struct Recovered: Sendable {
    var first: [UInt8]?
    var second: [UInt8]?
    var afterRewrite: [UInt8]?
  }

  static func recover(_ fileSystem: SimulatedFileSystem, options: AtomicFile.Options) throws
    -> Recovered
  {
    let file = AtomicFile(path: path, fileSystem: fileSystem, options: options)
    let first = try readAllowingOneCorrupt(file)
    let second = try file.read()?.bytes
    // "Writable again" is checked on a copy, so that recovery itself stays read-and-quarantine
    // and the explorer's crashes of recovery see only recovery's own operations.
    let scratch = AtomicFile(path: path, fileSystem: fileSystem.copy(), options: options)
    try scratch.write(Array("again".utf8))
    return Recovered(first: first, second: second, afterRewrite: try scratch.read()?.bytes)
  }

  /// `.corrupt` is thrown once when nothing usable remains; the invariant then fails on `nil`.
  static func readAllowingOneCorrupt(_ file: AtomicFile) throws -> [UInt8]? {
    do {
      return try file.read()?.bytes
    } catch  where error.code == .corrupt {
      return nil
    }
  }

  static func check(
    _ recovered: Recovered, old: [UInt8]?, new: [UInt8], context: CrashContext
  ) throws {
    let acknowledged = context.acknowledged.contains("written")
    if acknowledged {
      guard recovered.first == new else {
        throw Failure(
          "after write returned, read \(describe(recovered.first)) instead of the new bytes")
      }
    } else if recovered.first != new && recovered.first != old {
      throw Failure("read \(describe(recovered.first)): neither the old bytes nor the new")
    }
    guard recovered.second == recovered.first else {
      throw Failure("a second read disagrees: \(describe(recovered.second))")
    }
    guard recovered.afterRewrite == Array("again".utf8) else {
      throw Failure("not writable again: read \(describe(recovered.afterRewrite))")
    }
  }

  static func describe(_ bytes: [UInt8]?) -> String {
    guard let bytes else { return "nothing" }
    return "\(bytes.count) bytes starting \(Array(bytes.prefix(8)))"
  }

  struct Failure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
  }

  @Test("old or new, never a mix, never nothing; the new after return", arguments: cases)
  func invariantHolds(_ testCase: Case) {
    let options = AtomicFile.Options(
      envelope: testCase.envelope, keepPrevious: testCase.keepPrevious)
    let older = Self.payload("older", large: testCase.large)
    let old = testCase.existing ? Self.payload("old", large: testCase.large) : nil
    let new = Self.payload("new", large: testCase.large)
    let report = CrashExplorer().explore(
      setup: { fileSystem in
        try fileSystem.createDirectory("/data")
        guard let old else { return }
        let file = AtomicFile(path: Self.path, fileSystem: fileSystem, options: options)
        try file.write(older)
        try file.write(old)
      },
      operation: { fileSystem, recorder in
        try AtomicFile(path: Self.path, fileSystem: fileSystem, options: options).write(new)
        recorder.acknowledge("written")
      },
      recover: { try Self.recover($0, options: options) },
      check: { try Self.check($0, old: old, new: new, context: $1) })
    #expect(report.operationError == nil)
    #expect(report.crashPoints > 3)
    #expect(report.imagesChecked >= report.crashPoints)
    #expect(report.passed, "\(report.violations.prefix(3))")
  }

  // MARK: Broken writers: the harness must catch each one.

  typealias Writer = @Sendable (SimulatedFileSystem, [UInt8]) throws -> Void

  static func brokenWriterFails(
    envelope: Bool, caller: String = #function, _ writer: @escaping Writer
  ) -> CrashReport {
    CrashReportLog.$name.withValue("mutation atomic file \(caller)") {
      explore(envelope: envelope, writer)
    }
  }

  /// Explores a write of new contents over old ones with `writer`.
  private static func explore(envelope: Bool, _ writer: @escaping Writer) -> CrashReport {
    let options = AtomicFile.Options(envelope: envelope, keepPrevious: false)
    let old = Array("old contents".utf8)
    let new = Array("new contents, longer than the old".utf8)
    return CrashExplorer().explore(
      setup: { fileSystem in
        try fileSystem.createDirectory("/data")
        try AtomicFile(path: Self.path, fileSystem: fileSystem, options: options).write(old)
      },
      operation: { fileSystem, recorder in
        try writer(fileSystem, envelope ? AtomicFile.envelope(new) : new)
        recorder.acknowledge("written")
      },
      recover: { try Self.recover($0, options: options) },
      check: { try Self.check($0, old: old, new: new, context: $1) })
  }

  @Test("a write without a full sync fails the harness")
  func noFullSync() {
    let report = Self.brokenWriterFails(envelope: false) { fileSystem, bytes in
      let handle = try fileSystem.open(Self.path + ".tmp", .createExclusive)
      try fileSystem.write(handle, bytes, at: 0)
      try fileSystem.close(handle)
      try fileSystem.rename(Self.path + ".tmp", to: Self.path)
      try fileSystem.syncDirectory("/data")
    }
    #expect(!report.passed)
  }

  @Test("a write without the directory sync fails the harness")
  func noDirectorySync() {
    let report = Self.brokenWriterFails(envelope: true) { fileSystem, bytes in
      let handle = try fileSystem.open(Self.path + ".tmp", .createExclusive)
      try fileSystem.write(handle, bytes, at: 0)
      try fileSystem.sync(handle)
      try fileSystem.close(handle)
      try fileSystem.rename(Self.path + ".tmp", to: Self.path)
    }
    #expect(!report.passed)
  }

  @Test("a write in place fails the harness")
  func writtenInPlace() {
    let report = Self.brokenWriterFails(envelope: false) { fileSystem, bytes in
      let handle = try fileSystem.open(Self.path, .readWrite)
      try fileSystem.truncate(handle, to: 0)
      try fileSystem.write(handle, bytes, at: 0)
      try fileSystem.sync(handle)
      try fileSystem.close(handle)
    }
    #expect(!report.passed)
  }

  @Test("a rename before the full sync fails the harness")
  func renameBeforeSync() {
    let report = Self.brokenWriterFails(envelope: true) { fileSystem, bytes in
      let handle = try fileSystem.open(Self.path + ".tmp", .createExclusive)
      try fileSystem.write(handle, bytes, at: 0)
      try fileSystem.rename(Self.path + ".tmp", to: Self.path)
      try fileSystem.syncDirectory("/data")
      try fileSystem.sync(handle)
      try fileSystem.close(handle)
    }
    #expect(!report.passed)
  }

  @Test(
    "an enveloped write without a full sync fails: the checksum sees the tear, the write is lost")
  func envelopeWithoutFullSync() {
    let report = Self.brokenWriterFails(envelope: true) { fileSystem, bytes in
      let handle = try fileSystem.open(Self.path + ".tmp", .createExclusive)
      try fileSystem.write(handle, bytes, at: 0)
      try fileSystem.close(handle)
      try fileSystem.rename(Self.path + ".tmp", to: Self.path)
      try fileSystem.syncDirectory("/data")
    }
    #expect(!report.passed)
  }

  @Test("the real writer passes the same harness the broken ones fail")
  func realWriterPassesBrokenWriterHarness() {
    // Not named a mutation in CrashReportLog: it is the correct scenario.
    let report = Self.explore(envelope: true) { fileSystem, _ in
      let options = AtomicFile.Options(keepPrevious: false)
      try AtomicFile(path: Self.path, fileSystem: fileSystem, options: options)
        .write(Array("new contents, longer than the old".utf8))
    }
    #expect(report.passed, "\(report.violations.prefix(3))")
  }
}
