import BenchKit
import Glibc
import StoicStore

/// Appends journal-style frames (`length:u32 | crc32c:u32 | sequence:u64 | payload`,
/// little-endian, the CRC computed the way the journal computes it) by copying them into a
/// `MAP_SHARED` mapping of a file.
///
/// A store into a shared file mapping lands in the kernel's page cache when it completes, so a
/// record survives a crash of the process (SIGKILL) without a system call per record; only a
/// power loss needs `msync` / `fdatasync`. The mapping is a window of ``chunkSize`` bytes starting
/// at the page that holds the running offset; when a frame does not fit, the file is extended
/// and the window is moved (the cost of that is part of whatever the caller times).
struct MappedAppender: ~Copyable {
  /// Size of one mapped window (and of each extension of the file). 16 MiB rather than a
  /// larger chunk so that the benchmark's runs (21–43 MB of frames) move the window and pay
  /// for it, as an appender that maps segments of a few MiB would.
  static let chunkSize = 16 << 20

  private let descriptor: Int32
  private let pageSize: Int
  private var window: UnsafeMutableRawPointer? = nil
  private var windowStart = 0
  private var windowEnd = 0
  private var offset = 0
  private var sequence: UInt64 = 0
  /// File offset up to which `sync()` has made the records durable.
  private var syncedEnd = 0
  /// Windows mapped so far (the first included).
  private(set) var remaps = 0
  /// Whether the records not yet synced are synced before their window is unmapped.
  private let syncsBeforeUnmap: Bool

  /// Creates (truncating) the file; nothing is mapped until the first append. `syncs` is set
  /// by callers that call ``sync()``: the old window's pending pages are then synced before
  /// it is unmapped.
  init(path: String, syncs: Bool = false) throws {
    syncsBeforeUnmap = syncs
    let descriptor = Glibc.open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { throw Self.failure("open") }
    self.descriptor = descriptor
    pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
  }

  deinit {
    if let window { _ = munmap(window, windowEnd - windowStart) }
    _ = Glibc.close(descriptor)
  }

  /// Copies one frame for `payload` into the mapping at the running offset.
  mutating func append(_ payload: [UInt8]) throws {
    let frameSize = 16 + payload.count
    if offset + frameSize > windowEnd { try moveWindow(fitting: frameSize) }
    guard let window else { throw Self.failure("mmap") }
    sequence += 1
    let length = UInt32(8 + payload.count)
    var crc = withUnsafeBytes(of: length.littleEndian) { CRC32C.checksum($0) }
    crc = withUnsafeBytes(of: sequence.littleEndian) { CRC32C.checksum($0, continuing: crc) }
    crc = payload.withUnsafeBytes { CRC32C.checksum($0, continuing: crc) }
    let frame = window + (offset - windowStart)
    frame.storeBytes(of: length.littleEndian, toByteOffset: 0, as: UInt32.self)
    frame.storeBytes(of: crc.littleEndian, toByteOffset: 4, as: UInt32.self)
    frame.storeBytes(of: sequence.littleEndian, toByteOffset: 8, as: UInt64.self)
    payload.withUnsafeBytes { bytes in
      if let base = bytes.baseAddress {
        (frame + 16).copyMemory(from: base, byteCount: bytes.count)
      }
    }
    offset += frameSize
  }

  /// `msync(MS_SYNC)` of the pages written since the last sync: the records become durable
  /// against a power loss.
  mutating func sync() throws {
    guard let window, offset > syncedEnd else { return }
    let from = max(syncedEnd, windowStart) / pageSize * pageSize
    guard msync(window + (from - windowStart), offset - from, MS_SYNC) == 0 else {
      throw Self.failure("msync")
    }
    syncedEnd = offset
  }

  /// Maps the next window, starting at the page that holds `offset`, after making the file
  /// long enough for it.
  private mutating func moveWindow(fitting frameSize: Int) throws {
    let start = offset / pageSize * pageSize
    let end = start + Swift.max(Self.chunkSize, (offset - start + frameSize + pageSize))
    // The file is preallocated with posix_fallocate to the window's full end before the window
    // is mapped: the blocks are reserved now, so a store into the mapping can never hit ENOSPC
    // when its page is first written back or faulted in (which would raise SIGBUS instead of
    // returning an error). ftruncate alone would leave a sparse file with that hazard.
    let result = posix_fallocate(descriptor, off_t(windowEnd), off_t(end - windowEnd))
    guard result == 0 else {
      throw BenchError("posix_fallocate failed: \(String(cString: strerror(result)))")
    }
    if let window {
      // Records still waiting for a sync must not be left behind in the old window: the
      // next msync only covers the new one.
      if syncsBeforeUnmap { try sync() }
      _ = munmap(window, windowEnd - windowStart)
      self.window = nil
    }
    let mapped = mmap(
      nil, end - start, PROT_READ | PROT_WRITE, MAP_SHARED, descriptor, off_t(start))
    guard let mapped, mapped != MAP_FAILED else { throw Self.failure("mmap") }
    window = mapped
    windowStart = start
    windowEnd = end
    remaps += 1
  }

  private static func failure(_ call: String) -> BenchError {
    BenchError("\(call) failed: \(String(cString: strerror(errno)))")
  }
}
