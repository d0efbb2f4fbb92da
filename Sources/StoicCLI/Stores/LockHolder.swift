import StoicStore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Who holds a store's lock file, found without keeping (and where the system can tell,
/// without taking) the lock.
public enum LockHolder: Sendable, Hashable, CustomStringConvertible {
  /// There is no lock file.
  case noLockFile
  /// Nobody holds it.
  case free
  /// The process with this id holds it.
  case process(Int32)
  /// Another process holds it; which one cannot be told here.
  case anotherProcess
  /// Whether it is held could not be told (the lock file cannot be opened).
  case unknown(String)

  /// Finds who holds `lockFile`.
  ///
  /// 1. On Linux, `/proc/locks` lists every `flock`/`fcntl` lock with its owner's process id
  ///    and the file's device and inode: a holder found there is named without touching the
  ///    lock.
  /// 2. Otherwise a non-blocking `flock` on a separate open file description (read-only) asks
  ///    whether it is free; if it was, it is released at once.
  /// 3. A holder that writes its process id into `pidFile` (the spool's `spool.lock` will) is
  ///    named from there when the first step cannot name it.
  public static func probe(lockFile: String, pidFile: String? = nil) -> LockHolder {
    let status: FileStatus?
    do throws(StoreError) {
      status = try FileStatus.of(lockFile)
    } catch {
      return .unknown(error.message)
    }
    guard let status else { return .noLockFile }
    if let pid = fromProcLocks(device: status.device, inode: status.inode) {
      return .process(pid)
    }
    let descriptor = open(lockFile, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else {
      return .unknown("cannot open \(lockFile): \(String(cString: strerror(errno)))")
    }
    defer { _ = close(descriptor) }
    guard flock(descriptor, LOCK_EX | LOCK_NB) != 0 else {
      _ = flock(descriptor, LOCK_UN)
      return .free
    }
    guard errno == EWOULDBLOCK else {
      return .unknown("flock on \(lockFile): \(String(cString: strerror(errno)))")
    }
    if let pidFile, let pid = readPID(pidFile) { return .process(pid) }
    return .anotherProcess
  }

  /// Whether someone holds the lock.
  public var isHeld: Bool {
    switch self {
    case .process, .anotherProcess: true
    default: false
    }
  }

  /// The holder's process id, when known.
  public var pid: Int32? {
    if case .process(let pid) = self { return pid }
    return nil
  }

  /// `locked by process 4242`, `not locked`, …
  public var description: String {
    switch self {
    case .noLockFile: "no lock file"
    case .free: "not locked"
    case .process(let pid): "locked by process \(pid)"
    case .anotherProcess: "locked by another process"
    case .unknown(let why): "unknown (\(why))"
    }
  }

  /// The id of the process holding a lock on the file with `device` and `inode`, from
  /// `/proc/locks` (`1: FLOCK  ADVISORY  WRITE 4242 08:01:1234 0 EOF`; waiting requests,
  /// marked `->`, are skipped).
  static func fromProcLocks(device: UInt64, inode: UInt64) -> Int32? {
    guard let text = readSmallFile("/proc/locks") else { return nil }
    let major = ((device >> 8) & 0xfff) | ((device >> 32) & ~UInt64(0xfff))
    let minor = (device & 0xff) | ((device >> 12) & ~UInt64(0xff))
    for line in text.split(separator: "\n") {
      let fields = line.split(separator: " ", omittingEmptySubsequences: true)
      guard fields.count >= 6, !fields.contains("->") else { continue }
      let identity = fields[5].split(separator: ":")
      guard identity.count == 3, UInt64(identity[0], radix: 16) == major,
        UInt64(identity[1], radix: 16) == minor, UInt64(identity[2]) == inode,
        let pid = Int32(fields[4]), pid > 0
      else { continue }
      return pid
    }
    return nil
  }

  /// A process id written as decimal text at the start of `path`.
  static func readPID(_ path: String) -> Int32? {
    guard let text = readSmallFile(path) else { return nil }
    let digits = text.prefix { $0.isNumber }
    guard let pid = Int32(digits), pid > 0 else { return nil }
    return pid
  }

  /// The first 1 MiB of a file as text, or `nil` when it cannot be read.
  static func readSmallFile(_ path: String) -> String? {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    defer { _ = close(descriptor) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 64 << 10)
    while bytes.count < 1 << 20 {
      let got = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if got > 0 {
        bytes.append(contentsOf: chunk[0..<got])
      } else if got < 0 && errno == EINTR {
        continue
      } else {
        break
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}
