import BenchKit
import Glibc

/// A file written with the bare system calls, for the physical-floor peers.
struct RawFile: Sendable {
  let descriptor: Int32
  let path: String

  /// Creates (truncating) a file for writing; `append` opens it `O_APPEND` for `write(2)`.
  static func create(_ path: String, append: Bool = false) throws -> RawFile {
    let flags = O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | (append ? O_APPEND : 0)
    let descriptor = Glibc.open(path, flags, 0o644)
    guard descriptor >= 0 else { throw failure("open") }
    return RawFile(descriptor: descriptor, path: path)
  }

  /// Opens (creating when new, keeping what it holds) a file for `write(2)` at its end.
  static func appending(_ path: String) throws -> RawFile {
    let descriptor = Glibc.open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { throw failure("open") }
    return RawFile(descriptor: descriptor, path: path)
  }

  /// One `pwrite(2)` of all of `bytes` at `offset`.
  func pwrite(_ bytes: [UInt8], at offset: Int) throws {
    let written = bytes.withUnsafeBytes { raw in
      Glibc.pwrite(descriptor, raw.baseAddress, raw.count, off_t(offset))
    }
    guard written == bytes.count else { throw Self.failure("pwrite") }
  }

  /// One `write(2)` of all of `bytes` (at the end for an `O_APPEND` file).
  func write(_ bytes: [UInt8]) throws {
    let written = bytes.withUnsafeBytes { raw in
      Glibc.write(descriptor, raw.baseAddress, raw.count)
    }
    guard written == bytes.count else { throw Self.failure("write") }
  }

  func fdatasync() throws {
    guard Glibc.fdatasync(descriptor) == 0 else { throw Self.failure("fdatasync") }
  }

  func fsync() throws {
    guard Glibc.fsync(descriptor) == 0 else { throw Self.failure("fsync") }
  }

  func close() {
    _ = Glibc.close(descriptor)
  }

  private static func failure(_ call: String) -> BenchError {
    BenchError("\(call) failed: \(String(cString: strerror(errno)))")
  }
}
