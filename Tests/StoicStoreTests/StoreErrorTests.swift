import StoicStore
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

@Suite("StoreError: the errno table, the retry decisions and the descriptions")
struct StoreErrorTests {
  /// The seed's classification: every errno it names, with the code and the decision.
  static let errnoTable: [(String, Int32, StoreError.Code, RetryDecision)] = [
    ("ENOSPC", ENOSPC, .diskFull, .stop),
    ("EROFS", EROFS, .readOnly, .stop),
    ("EDQUOT", EDQUOT, .quotaExceeded, .stop),
    ("EACCES", EACCES, .permissionDenied, .stop),
    ("EPERM", EPERM, .permissionDenied, .stop),
    ("ENOENT", ENOENT, .notFound, .stop),
    ("ENOTDIR", ENOTDIR, .notFound, .stop),
    ("EEXIST", EEXIST, .alreadyExists, .stop),
    ("EINVAL", EINVAL, .invalidArgument, .stop),
    ("EIO", EIO, .io, .stop),
    ("ENOTSUP", ENOTSUP, .unsupported, .stop),
    ("EISDIR", EISDIR, .other, .stop),
    ("EBADF", EBADF, .other, .stop),
    ("EXDEV", EXDEV, .other, .stop),
    ("EINTR", EINTR, .interrupted, .retry),
    ("EAGAIN", EAGAIN, .temporarilyUnavailable, .retry),
    ("EWOULDBLOCK", EWOULDBLOCK, .temporarilyUnavailable, .retry),
    ("EBUSY", EBUSY, .temporarilyUnavailable, .retry),
    ("EMFILE", EMFILE, .temporarilyUnavailable, .retry),
    ("ENFILE", ENFILE, .temporarilyUnavailable, .retry),
    ("ENOMEM", ENOMEM, .temporarilyUnavailable, .retry),
  ]

  @Test("each errno maps to its code and retry decision, as the seed's table says")
  func errnoTableMatchesSeed() {
    for (name, value, code, decision) in Self.errnoTable {
      #expect(StoreError.Code(errno: StoreErrno(rawValue: value)) == code, "\(name)")
      #expect(code.retryDecision == decision, "\(name)")
      // A call that gives the errno no meaning of its own classifies it as the table does.
      let error = StoreError.system("statvfs", StoreErrno(rawValue: value), path: "/data")
      if value != EBADF {
        #expect(error.code == code, "\(name)")
        #expect(error.retryDecision == decision, "\(name)")
      }
    }
  }

  /// Errnos whose meaning depends on the call, as swift-nio's table of system calls has them.
  static let perCall: [(String, Int32, StoreError.Code)] = [
    ("fdatasync", EBADF, .closed), ("pwrite", EBADF, .closed), ("close", EBADF, .closed),
    ("flock", EWOULDBLOCK, .locked), ("mmap", ENODEV, .unsupported),
    ("mmap", EINVAL, .invalidArgument), ("fdatasync", EINVAL, .unsupported),
    ("rename", EXDEV, .unsupported), ("rename", ENOTEMPTY, .alreadyExists),
    ("open", EISDIR, .invalidArgument), ("ftruncate", EFBIG, .invalidArgument),
    ("open", ENAMETOOLONG, .invalidArgument), ("pwrite", EXDEV, .other),
    ("fdatasync", EIO, .io), ("pwrite", ENOSPC, .diskFull),
  ]

  @Test("the same errno from different calls: the call's meaning wins")
  func perCallMeaning() {
    for (call, value, code) in Self.perCall {
      let error = StoreError.system(call, StoreErrno(rawValue: value), path: "/data/file")
      #expect(error.code == code, "\(call) \(value)")
      #expect(error.syscall == call)
      #expect(error.message.contains("'/data/file'"))
    }
  }

  @Test("messages say what was done, what happened and what to do")
  func messagesAdvise() {
    let full = StoreError.system("pwrite", .noSpace, path: "/spool/a.log")
    #expect(full.message.hasPrefix("Could not write to '/spool/a.log': no space is left"))
    #expect(full.message.contains("Free space on this volume"))
    let sync = StoreError.system("fdatasync", .ioError, path: "/spool/a.log")
    #expect(sync.message.contains("writes since the last sync may be lost"))
    #expect(sync.message.contains("reopen the store"))
    let closed = StoreError.system("fdatasync", .badFileDescriptor, path: "/spool/a.log")
    #expect(closed.message.contains("the handle was already closed"))
    let denied = StoreError.system("open", .permissionDenied, path: "/etc/x")
    #expect(denied.message.contains("Check the owner and mode"))
  }

  @Test("detailedDescription renders the chain of causes, outermost first")
  func detailedDescription() {
    let io = StoreError.system("fdatasync", .ioError, path: "/spool/journal-1.log")
    let poisoned = StoreError(.poisoned, "a sync failed; reopen", path: "/spool", cause: io)
    let outer = StoreError(.io, "the spool could not flush", cause: poisoned)
    let lines = outer.detailedDescription.split(separator: "\n").map(String.init)
    #expect(lines.count == 3)
    #expect(lines[0].hasPrefix("StoreError.io: the spool could not flush"))
    #expect(lines[1].hasPrefix("  ← StoreError.poisoned: a sync failed"))
    #expect(lines[2].hasPrefix("  ← StoreError.io: Could not make durable (sync)"))
    #expect(!lines[0].contains("cause:"))
  }

  @Test("codes without an errno: corrupt and poisoned stop, locked retries")
  func codeDecisions() {
    let table: [(StoreError.Code, RetryDecision)] = [
      (.corrupt, .stop), (.poisoned, .stop), (.closed, .stop), (.invalidArgument, .stop),
      (.unsupported, .stop), (.other, .stop), (.diskFull, .stop), (.io, .stop),
      (.locked, .retry), (.interrupted, .retry), (.temporarilyUnavailable, .retry),
      (.internalInconsistency, .stop),
    ]
    for (code, decision) in table {
      #expect(code.retryDecision == decision, "\(code)")
      #expect(StoreError(code, "something").retryDecision == decision, "\(code)")
    }
  }

  @Test("a system call's error names the code, call, path and errno in its description")
  func systemDescription() {
    let error = StoreError.system("open", .noSpace, path: "/data/settings.json.tmp")
    #expect(error.syscall == "open")
    #expect(error.errno == .noSpace)
    #expect(error.path == "/data/settings.json.tmp")
    let text = error.description
    for part in ["diskFull", "open", "/data/settings.json.tmp", "ENOSPC", "StoreErrorTests.swift"] {
      #expect(text.contains(part), "\(part) missing from \(text)")
    }
    // The message already names them, so they are not repeated.
    #expect(!text.contains("path:"))
    #expect(!text.contains("syscall:"))
  }

  @Test("the description shows path, call and errno even when the message does not")
  func descriptionAddsDetails() {
    let error = StoreError(
      .io, "reading the journal failed", path: "/data/log.journal", syscall: "pread",
      errno: .ioError)
    let text = error.description
    for part in ["io", "reading the journal failed", "/data/log.journal", "pread", "EIO"] {
      #expect(text.contains(part), "\(part) missing from \(text)")
    }
    let plain = StoreError(.corrupt, "bad envelope")
    #expect(plain.description.hasPrefix("StoreError.corrupt: bad envelope"))
    #expect(!plain.description.contains("path"))
  }

  @Test("a wrapped cause and the raising location appear in the description")
  func causeAndLocation() {
    struct Underlying: Error, CustomStringConvertible {
      var description: String { "the codec refused it" }
    }
    let error = StoreError(.corrupt, "entry unreadable", cause: Underlying())
    #expect(error.description.contains("the codec refused it"))
    #expect(error.location.file.hasSuffix("StoreErrorTests.swift"))
    #expect(error.description.contains("StoreErrorTests.swift:\(error.location.line)"))
  }

  @Test("StoreErrno describes itself by name and strerror, and any value is representable")
  func errnoDescription() {
    #expect(StoreErrno.noSpace.description.hasPrefix("ENOSPC ("))
    #expect(StoreErrno.ioError.description.hasPrefix("EIO ("))
    #expect(StoreErrno(rawValue: EWOULDBLOCK) == .resourceTemporarilyUnavailable)
    #expect(StoreErrno(rawValue: EXDEV).description.hasPrefix("EXDEV ("))
    #expect(StoreErrno(rawValue: EHOSTDOWN).description.hasPrefix("errno \(EHOSTDOWN) ("))
    #expect(StoreErrno(rawValue: 9_999).description.hasPrefix("errno 9999 ("))
  }
}
