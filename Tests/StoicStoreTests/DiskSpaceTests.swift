import StoicStore
import Testing

/// A file system that only answers ``FileSystem/freeSpace(_:)``, from a table of paths.
private struct FreeSpaceOnlyFileSystem: FileSystem {
  /// Free bytes by path; a path not in the table is not there (`notFound`).
  let free: [String: UInt64]

  func freeSpace(_ path: String) throws(StoreError) -> UInt64 {
    guard let bytes = free[path] else {
      throw StoreError.system("statvfs", .noSuchFile, path: path)
    }
    return bytes
  }

  private func unused() -> StoreError { StoreError(.unsupported, "not used by the preflight") }
  func open(_ path: String, _ mode: OpenMode, permissions: FilePermissions) throws(StoreError)
    -> StoreFileHandle
  { throw unused() }
  func close(_ handle: StoreFileHandle) throws(StoreError) { throw unused() }
  func read(
    _ handle: StoreFileHandle, into buffer: UnsafeMutableRawBufferPointer, at offset: UInt64
  )
    throws(StoreError) -> Int
  { throw unused() }
  func write(_ handle: StoreFileHandle, _ bytes: UnsafeRawBufferPointer, at offset: UInt64)
    throws(StoreError)
  { throw unused() }
  func map(_ handle: StoreFileHandle, length: UInt64) throws(StoreError) -> any FileMapping {
    throw unused()
  }
  func truncate(_ handle: StoreFileHandle, to size: UInt64) throws(StoreError) { throw unused() }
  func sync(_ handle: StoreFileHandle) throws(StoreError) { throw unused() }
  func syncDirectory(_ path: String) throws(StoreError) { throw unused() }
  func rename(_ source: String, to destination: String) throws(StoreError) { throw unused() }
  func remove(_ path: String) throws(StoreError) { throw unused() }
  func list(_ directory: String) throws(StoreError) -> [String] { throw unused() }
  func size(_ handle: StoreFileHandle) throws(StoreError) -> UInt64 { throw unused() }
  func fileSize(_ path: String) throws(StoreError) -> UInt64? { throw unused() }
  func createDirectory(_ path: String, permissions: FilePermissions) throws(StoreError) {
    throw unused()
  }
  func lock(_ handle: StoreFileHandle) throws(StoreError) { throw unused() }
}

@Suite("DiskSpace.preflight: enough free space, or diskFull before anything is touched")
struct DiskSpaceTests {
  private let fs = FreeSpaceOnlyFileSystem(free: ["/data/file": 1_000, "/data": 1_000, "/full": 0])

  @Test("passes at exactly bytesNeeded + margin, fails one byte above")
  func boundary() throws {
    try DiskSpace.preflight(fs, path: "/data/file", bytesNeeded: 900, margin: 100)
    try DiskSpace.preflight(fs, path: "/data/file", bytesNeeded: 1_000, margin: 0)
    let error = try #require(throws: StoreError.self) {
      try DiskSpace.preflight(fs, path: "/data/file", bytesNeeded: 901, margin: 100)
    }
    #expect(error.code == .diskFull)
    #expect(error.retryDecision == .stop)
    #expect(error.path == "/data/file")
    #expect(error.message.contains("needs 901 bytes plus a margin of 100"))
    #expect(error.message.contains("1000 available"))
  }

  @Test("the default margin is 1 MiB")
  func defaultMargin() throws {
    #expect(DiskSpace.defaultMargin == 1 << 20)
    let roomy = FreeSpaceOnlyFileSystem(free: ["/d": (1 << 20) + 10])
    try DiskSpace.preflight(roomy, path: "/d", bytesNeeded: 10)
    let error = try #require(throws: StoreError.self) {
      try DiskSpace.preflight(roomy, path: "/d", bytesNeeded: 11)
    }
    #expect(error.code == .diskFull)
  }

  @Test("a file not yet created is checked on its directory; a missing directory throws")
  func missingFileUsesDirectory() throws {
    try DiskSpace.preflight(fs, path: "/data/new.tmp", bytesNeeded: 10, margin: 0)
    let error = try #require(throws: StoreError.self) {
      try DiskSpace.preflight(fs, path: "/nowhere/new.tmp", bytesNeeded: 10, margin: 0)
    }
    #expect(error.code == .notFound)
    #expect(error.path == "/nowhere")
  }

  @Test("with no free space, zero bytes and no margin pass; one byte fails")
  func zeroBytes() throws {
    try DiskSpace.preflight(fs, path: "/full", bytesNeeded: 0, margin: 0)
    let error = try #require(throws: StoreError.self) {
      try DiskSpace.preflight(fs, path: "/full", bytesNeeded: 1, margin: 0)
    }
    #expect(error.code == .diskFull)
  }

  @Test("a request that overflows UInt64 with its margin is refused, not wrapped around")
  func overflow() throws {
    let error = try #require(throws: StoreError.self) {
      try DiskSpace.preflight(fs, path: "/data/file", bytesNeeded: .max, margin: 2)
    }
    #expect(error.code == .diskFull)
  }

  @Test("against the real disk: a small request passes, an impossible one fails")
  func realDisk() throws {
    let posix = PosixFileSystem()
    try DiskSpace.preflight(posix, path: "/tmp/stoic-preflight-not-created", bytesNeeded: 1)
    let free = try posix.freeSpace("/tmp")
    let error = try #require(throws: StoreError.self) {
      try DiskSpace.preflight(posix, path: "/tmp", bytesNeeded: free + (1 << 40), margin: 0)
    }
    #expect(error.code == .diskFull)
    #expect(error.retryDecision == .stop)
  }

  @Test("ENOSPC, EROFS and EDQUOT from the disk are permanent: stop, never retry")
  func permanentErrnos() {
    for errno in [StoreErrno.noSpace, .readOnlyFileSystem, .quotaExceeded] {
      #expect(StoreError.system("pwrite", errno, path: "/data/file").retryDecision == .stop)
    }
  }
}
