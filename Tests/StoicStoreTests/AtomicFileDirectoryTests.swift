import StoicStore
import StoicTesting
import Testing

/// An atomic file whose directory does not exist yet: the first write creates it, with every
/// missing level above it, and once the write returned a power cut at any point keeps the
/// file, directories and all. The directories are private unless the file is shared.
@Suite struct AtomicFileDirectoryTests {
  /// Two levels that do not exist yet.
  static let path = "/state/app/current"

  @Test func firstWriteCreatesEveryMissingLevelDurably() {
    let bytes = Array("generation 1".utf8)
    let report = CrashExplorer().explore(
      operation: { disk, recorder in
        try AtomicFile(path: Self.path, fileSystem: disk).write(bytes)
        recorder.acknowledge("written")
      },
      recover: { disk in
        try AtomicFile(path: Self.path, fileSystem: disk).read()?.bytes
      },
      check: { read, context in
        try context.require(read == nil || read == bytes, "a mix: \(String(describing: read))")
        if context.acknowledged.contains("written") {
          try context.require(read == bytes, "acknowledged write lost: \(String(describing: read))")
        }
      })
    #expect(report.passed, "\(report)")
    #expect(report.operationError == nil)
    #expect(report.crashPoints > 5)
  }

  @Test func createdDirectoriesArePrivate() throws {
    let disk = SimulatedFileSystem()
    try AtomicFile(path: Self.path, fileSystem: disk).write(Array("x".utf8))
    #expect(disk.permissions("/state/app") == .privateDirectory)
    #expect(disk.permissions("/state") == .privateDirectory)
  }

  @Test func anExistingDirectoryIsLeftAsItIs() throws {
    let disk = SimulatedFileSystem()
    try disk.createDirectory("/shared", permissions: FilePermissions(rawValue: 0o755))
    try AtomicFile(path: "/shared/current", fileSystem: disk).write(Array("x".utf8))
    #expect(disk.permissions("/shared") == FilePermissions(rawValue: 0o755))
    #expect(
      try AtomicFile(path: "/shared/current", fileSystem: disk).read()?.bytes == Array("x".utf8))
  }
}
