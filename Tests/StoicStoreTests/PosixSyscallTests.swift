import Testing

@testable import StoicStore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

@Suite("The syscall wrapper: EINTR restarted, errno captured, failures typed")
struct PosixSyscallTests {
  /// A stand-in for a system call: fails with each errno in `failures` in turn, then returns
  /// `value`.
  final class ScriptedCall {
    var failures: [Int32]
    let value: Int32
    var calls = 0

    init(failing failures: [Int32], then value: Int32) {
      self.failures = failures
      self.value = value
    }

    func callAsFunction() -> Int32 {
      calls += 1
      guard !failures.isEmpty else { return value }
      errno = failures.removeFirst()
      return -1
    }
  }

  @Test("EINTR is restarted until the call succeeds")
  func interruptRestarted() throws {
    let call = ScriptedCall(failing: [EINTR, EINTR, EINTR], then: 7)
    #expect(try Syscall.run("pread", path: "/p") { call() } == 7)
    #expect(call.calls == 4)
  }

  @Test("EINTR is returned, not restarted, when restarting is off (close)")
  func interruptNotRestartedForClose() {
    let call = ScriptedCall(failing: [EINTR], then: 0)
    guard case .failure(let error) = Syscall.result(restartingOnInterrupt: false, { call() })
    else {
      Issue.record("an interrupted call reported success")
      return
    }
    #expect(error == .interrupted)
    #expect(call.calls == 1)
  }

  @Test("EIO from fsync becomes a StoreError with code io that stops")
  func ioErrorFromFsync() throws {
    let call = ScriptedCall(failing: [EINTR, EIO], then: 0)
    let error = try #require(throws: StoreError.self) {
      try Syscall.run("fsync", path: "/data/journal") { call() }
    }
    #expect(error.code == .io)
    #expect(error.errno == .ioError)
    #expect(error.syscall == "fsync")
    #expect(error.path == "/data/journal")
    #expect(error.retryDecision == .stop)
    #expect(error.location.file.hasPrefix("StoicStoreTests/"))
    #expect(call.calls == 2)
  }

  @Test("a pointer call: NULL without errno is the end, with errno a failure, EINTR restarted")
  func pointerCalls() throws {
    var storage: Int32 = 5
    try withUnsafeMutablePointer(to: &storage) { (pointer) throws in
      var attempts = 0
      let found = try Syscall.pointer("readdir", path: "/d") {
        () -> UnsafeMutablePointer<Int32>? in
        attempts += 1
        if attempts < 3 {
          errno = EINTR
          return nil
        }
        return pointer
      }
      #expect(found == pointer)
      #expect(attempts == 3)
    }
    let end = try Syscall.pointer("readdir", path: "/d") { () -> UnsafeMutablePointer<Int32>? in
      nil
    }
    #expect(end == nil)
    let error = try #require(throws: StoreError.self) {
      try Syscall.pointer("opendir", path: "/gone") { () -> UnsafeMutablePointer<Int32>? in
        errno = ENOENT
        return nil
      }
    }
    #expect(error.code == .notFound)
    #expect(error.syscall == "opendir")
    #expect(error.path == "/gone")
  }

  @Test("a refused F_FULLFSYNC falls back to fsync and reports it once per file system")
  func fullSyncFallbackReportedOnce() throws {
    let recorder = PosixEventRecorder()
    let fs = PosixFileSystem(events: recorder.sink)
    let copy = fs
    for (refusal, system) in [(ENOTSUP, fs), (EINVAL, copy), (ENOTSUP, fs)] {
      let fullSync = ScriptedCall(failing: [refusal], then: 0)
      let fsync = ScriptedCall(failing: [EINTR], then: 0)
      try system.flushPreferringFullSync(
        path: "/data/settings.json", fullSync: { fullSync() }, fsync: { fsync() })
      #expect(fullSync.calls == 1)
      #expect(fsync.calls == 2)
    }
    #expect(recorder.events.map(\.name) == [StoreEvents.fullSyncUnavailable.name])
    #expect(recorder.events.first?.level == .warning)
    #expect(recorder.events.first?["path"] == "/data/settings.json")
    #expect(StoreEvents.catalog.contains(StoreEvents.fullSyncUnavailable))

    let other = PosixFileSystem(events: recorder.sink)
    try other.flushPreferringFullSync(
      path: "/other", fullSync: ScriptedCall(failing: [ENOTSUP], then: 0).callAsFunction,
      fsync: ScriptedCall(failing: [], then: 0).callAsFunction)
    #expect(recorder.events.count == 2)
  }

  @Test("a working F_FULLFSYNC is used alone; other failures are thrown, not masked by fsync")
  func fullSyncFailuresThrown() throws {
    let recorder = PosixEventRecorder()
    let fs = PosixFileSystem(events: recorder.sink)
    let fsync = ScriptedCall(failing: [], then: 0)
    try fs.flushPreferringFullSync(
      path: "/ok", fullSync: ScriptedCall(failing: [EINTR], then: 0).callAsFunction,
      fsync: { fsync() })
    #expect(fsync.calls == 0)

    let failed = try #require(throws: StoreError.self) {
      try fs.flushPreferringFullSync(
        path: "/bad", fullSync: ScriptedCall(failing: [EIO], then: 0).callAsFunction,
        fsync: { fsync() })
    }
    #expect(failed.code == .io)
    #expect(failed.syscall == "fcntl(F_FULLFSYNC)")
    #expect(failed.retryDecision == .stop)
    #expect(fsync.calls == 0)

    let fallbackFailed = try #require(throws: StoreError.self) {
      try fs.flushPreferringFullSync(
        path: "/bad", fullSync: ScriptedCall(failing: [ENOTSUP], then: 0).callAsFunction,
        fsync: ScriptedCall(failing: [EIO], then: 0).callAsFunction)
    }
    #expect(fallbackFailed.code == .io)
    #expect(fallbackFailed.syscall == "fsync")
    #expect(recorder.events.count == 1)
  }
}
