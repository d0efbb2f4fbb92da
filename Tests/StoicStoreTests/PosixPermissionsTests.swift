import Foundation
import Testing

@testable import StoicStore

/// What the store creates on a real disk is private to its owner whatever the umask: files
/// `0600`, directories `0700`, unless a caller asks for other bits.
///
/// The umask belongs to the whole process, so the store's files are made by a child: the test
/// binary started again through `sh -c 'umask …; exec …'`, filtered to this test, with
/// `STOIC_PERMISSIONS_CHILD` naming the directory to fill.
@Suite("Files and directories the store creates are private whatever the umask")
struct PosixPermissionsTests {
  static let childVariable = "STOIC_PERMISSIONS_CHILD"
  static let umaskVariable = "STOIC_PERMISSIONS_UMASK"

  /// What the child leaves under its directory, by path relative to it, with their bits.
  typealias Modes = [String: FilePermissions]

  @Test(
    "journal, outbox and AtomicFile files are 0600 and their directories 0700 under umask 000 and 277",
    arguments: ["000", "277"])
  func privateWhateverTheUmask(umask: String) async throws {
    let environment = ProcessInfo.processInfo.environment
    if let directory = environment[Self.childVariable] {
      // The child runs this test with both arguments; only its own umask's does the work.
      guard environment[Self.umaskVariable] == umask else { return }
      await Self.runChild(directory)
    }
    try PosixScratchDirectory.with { scratch in
      let status = try Self.runChild(in: scratch, umask: umask)
      let log = (try? PosixFileSystem().readWholeFile(scratch + "/child.log")) ?? []
      try #require(
        status == 0, "the child exited with \(status): \(String(decoding: log, as: UTF8.self))")
      #expect(try Self.mode(scratch + "/store") == .privateDirectory)
      let modes = try Self.modes(under: scratch + "/store")
      let names = modes.keys.map { StorePath.name(of: $0) }
      // Every kind of file the store writes is there to be checked.
      for suffix in [".log", ".zst", "journal.lock", "journal.checkpoint", ".previous"] {
        #expect(names.contains { $0.hasSuffix(suffix) }, "no \(suffix) in \(modes.keys.sorted())")
      }
      #expect(names.contains { $0.contains(".corrupt-") }, "no quarantined copy")
      #expect(modes.keys.contains("outbox"))
      for (path, mode) in modes.sorted(by: { $0.key < $1.key }) {
        let expected: FilePermissions
        if path == "shared/settings.json" {
          expected = .readableByAll
        } else if path == "shared" {
          expected = FilePermissions(rawValue: 0o755)
        } else if try Self.isDirectory(scratch + "/store/" + path) {
          expected = .privateDirectory
        } else {
          expected = .privateFile
        }
        #expect(mode == expected, "\(path) is \(mode), not \(expected), under umask \(umask)")
      }
    }
  }

  @Test("an existing file keeps its own bits when opened again; a new one gets exactly those asked")
  func existingFilesKeepTheirBits() throws {
    try PosixScratchDirectory.with { scratch in
      let disk = PosixFileSystem()
      let path = scratch + "/file"
      let created = try disk.open(
        path, .createExclusive, permissions: FilePermissions(rawValue: 0o640))
      try disk.close(created)
      #expect(try Self.mode(path) == FilePermissions(rawValue: 0o640))
      let reopened = try disk.open(path, .createOrOpen)
      try disk.close(reopened)
      #expect(try Self.mode(path) == FilePermissions(rawValue: 0o640))
      let again = #expect(throws: StoreError.self) {
        try disk.open(path, .createExclusive)
      }
      #expect(again?.code == .alreadyExists)
      try disk.createDirectory(scratch + "/a/b", permissions: FilePermissions(rawValue: 0o750))
      #expect(try Self.mode(scratch + "/a") == FilePermissions(rawValue: 0o750))
      #expect(try Self.mode(scratch + "/a/b") == FilePermissions(rawValue: 0o750))
      try disk.createDirectory(scratch + "/a/b")
      #expect(try Self.mode(scratch + "/a/b") == FilePermissions(rawValue: 0o750))
    }
  }

  @Test("a file system that cannot store the bits may refuse fchmod if nobody else gets access")
  func refusedChangeIsAcceptedOnlyWhenNothingWider() throws {
    try PosixScratchDirectory.with { scratch in
      let disk = PosixFileSystem()
      let path = scratch + "/file"
      let handle = try disk.open(path, .createExclusive, permissions: .privateFile)
      defer { try? disk.close(handle) }
      let refused = PosixSyscallTests.ScriptedCall(failing: [EPERM], then: 0)
      // The file shows 0600: a refusal to set 0600 (or 0644) grants nobody anything.
      try disk.setPermissions(handle.descriptor, .privateFile, path: path) { refused() }
      try disk.setPermissions(handle.descriptor, .readableByAll, path: path) {
        PosixSyscallTests.ScriptedCall(failing: [ENOTSUP], then: 0)()
      }
      #expect(refused.calls == 1)
      // The file shows 0644 and 0600 is asked: refusing would leave it readable by others.
      #expect(fchmod(handle.descriptor, 0o644) == 0)
      let wider = try #require(throws: StoreError.self) {
        try disk.setPermissions(handle.descriptor, .privateFile, path: path) {
          PosixSyscallTests.ScriptedCall(failing: [EPERM], then: 0)()
        }
      }
      #expect(wider.syscall == "fchmod")
      #expect(wider.errno == .notPermitted)
      // Any other failure is thrown, whatever the bits.
      let io = try #require(throws: StoreError.self) {
        try disk.setPermissions(handle.descriptor, .readableByAll, path: path) {
          PosixSyscallTests.ScriptedCall(failing: [EIO], then: 0)()
        }
      }
      #expect(io.code == .io)
    }
  }

  @Test("FilePermissions: bits above 0777 dropped, octal description, directory bits")
  func permissionValues() {
    #expect(FilePermissions(rawValue: 0o4755).rawValue == 0o755)
    #expect(FilePermissions.privateFile.description == "0600")
    #expect(FilePermissions(rawValue: 0o7).description == "0007")
    #expect(FilePermissions.privateFile.forDirectory == .privateDirectory)
    #expect(FilePermissions.readableByAll.forDirectory == FilePermissions(rawValue: 0o755))
    #expect(FilePermissions(rawValue: 0o640).forDirectory == FilePermissions(rawValue: 0o750))
    #expect(!FilePermissions.privateFile.isAccessibleToOthers)
    #expect(!FilePermissions.privateDirectory.isAccessibleToOthers)
    #expect(FilePermissions(rawValue: 0o604).isAccessibleToOthers)
  }

  /// Runs this test again in a child process under `umask`, filling `scratch`; the child's
  /// standard error is kept in `scratch/child.log`.
  static func runChild(in scratch: String, umask: String) throws -> Int32 {
    _ = FileManager.default.createFile(atPath: scratch + "/child.log", contents: nil)
    let child = try TestBinaryChild.process(
      filter: "PosixPermissionsTests/privateWhatever",
      environment: [childVariable: scratch, umaskVariable: umask], umask: umask,
      standardError: Foundation.FileHandle(forWritingAtPath: scratch + "/child.log"))
    try child.run()
    child.waitUntilExit()
    return child.terminationStatus
  }

  /// The child's part: a journal that rolled, compressed, took a snapshot and salvaged a
  /// damaged record; an outbox; an AtomicFile with a previous generation and a quarantined
  /// copy; one asking for `0644`. Exits 0, or with the step that failed.
  static func runChild(_ scratch: String) async -> Never {
    let disk = PosixFileSystem()
    let store = scratch + "/store"
    do {
      let options = JournalOptions(
        syncPolicy: .always, segmentSize: 4096, compressSealedSegments: true,
        backgroundMaintenance: false)
      let journal = try Journal.open(
        directory: store + "/spool/journal", fileSystem: disk, options: options)
      for index in 0..<200 { try journal.append(Array("record \(index)".utf8)) }
      try journal.writeSnapshot(covering: 20, bytes: Array("state".utf8))
      try journal.close()
      try damageLastRecord(in: store + "/spool/journal")
      var salvaging = options
      salvaging.salvage = true
      let salvaged = try Journal.open(
        directory: store + "/spool/journal", fileSystem: disk, options: salvaging)
      try salvaged.close()

      let outbox = try Outbox<String>(
        directory: store + "/outbox", fileSystem: disk, codec: .utf8)
      try await outbox.enqueue("item", key: "key-1")
      try await outbox.compact()
      try await outbox.close()

      try disk.createDirectory(store + "/settings")
      let file = AtomicFile(path: store + "/settings/app.json", fileSystem: disk)
      try file.write(Array("one".utf8))
      try file.write(Array("two".utf8))
      try flipLastByte(of: file.path)
      _ = try? file.read()

      try disk.createDirectory(store + "/shared", permissions: .readableByAll.forDirectory)
      try AtomicFile(
        path: store + "/shared/settings.json", fileSystem: disk,
        options: AtomicFile.Options(permissions: .readableByAll)
      ).write(Array("{}".utf8))
    } catch {
      Foundation.FileHandle.standardError.write(Data("\(error)\n".utf8))
      exit(3)
    }
    exit(0)
  }

  /// Flips a payload byte of the last record in the active segment: the record was synced and
  /// claimed by a marker, so the next open sees damage, not a torn tail.
  static func damageLastRecord(in directory: String) throws {
    let active = try #require(
      PosixFileSystem().list(directory).filter { $0.hasSuffix(".log") }.last)
    let path = directory + "/" + active
    let bytes = try #require(try PosixFileSystem().readWholeFile(path))
    let record = Array("record 199".utf8)
    let offset = try #require(
      (0...(bytes.count - record.count)).last { Array(bytes[$0..<($0 + record.count)]) == record })
    try overwrite(path, at: offset, with: [bytes[offset] ^ 0x20])
  }

  /// Flips the last byte of the file at `path`, in place (its bits stay as they are).
  static func flipLastByte(of path: String) throws {
    let size = try #require(try PosixFileSystem().fileSize(path))
    let last = try #require(try PosixFileSystem().readWholeFile(path)?.last)
    try overwrite(path, at: Int(size) - 1, with: [last ^ 0x01])
  }

  /// Writes `bytes` at `offset` of the existing file at `path`.
  static func overwrite(_ path: String, at offset: Int, with bytes: [UInt8]) throws {
    let disk = PosixFileSystem()
    let handle = try disk.open(path, .readWrite)
    defer { try? disk.close(handle) }
    try disk.write(handle, bytes, at: UInt64(offset))
  }

  /// The permission bits of everything under `root`, by path relative to it.
  static func modes(under root: String) throws -> Modes {
    var modes: Modes = [:]
    let enumerator = try #require(FileManager.default.enumerator(atPath: root))
    for case let relative as String in enumerator {
      modes[relative] = try mode(root + "/" + relative)
    }
    return modes
  }

  /// The permission bits of `path` (`lstat`).
  static func mode(_ path: String) throws -> FilePermissions {
    var info = stat()
    try #require(lstat(path, &info) == 0, "lstat \(path): errno \(errno)")
    return FilePermissions(rawValue: UInt16(truncatingIfNeeded: info.st_mode))
  }

  /// Whether `path` is a directory (`lstat`).
  static func isDirectory(_ path: String) throws -> Bool {
    var info = stat()
    try #require(lstat(path, &info) == 0, "lstat \(path): errno \(errno)")
    return info.st_mode & S_IFMT == S_IFDIR
  }
}
