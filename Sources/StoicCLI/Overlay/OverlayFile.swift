import StoicStore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One file of an ``OverlayFileSystem``: the real file it started as (read on demand, never
/// written) under the writes and truncates made to it in memory.
struct OverlayFile {
  /// The real file it started as, or `nil` for a file created in the overlay.
  let basePath: String?
  /// Bytes `[0, baseValid)` come from the real file; a truncate lowers it (bytes beyond a cut
  /// are zeros if the file grows again).
  var baseValid: UInt64
  /// The file's size as the overlay sees it.
  var size: UInt64
  /// The writes made in memory, in order (later ones over earlier ones; adjacent ones merged).
  var writes: [(offset: UInt64, bytes: [UInt8])] = []
  /// A read-only descriptor of the real file, open while the overlay has handles on it, or
  /// for the overlay's whole life when ``pinned``.
  var descriptor: Int32?
  /// The descriptor was opened when the directory was listed and is kept: the file stays
  /// readable as it was then, even if another process removes or replaces it.
  var pinned = false
  /// Open handles of the overlay on this file.
  var handles = 0

  /// A file backed by the real file at `path`, of `size` bytes; with `descriptor`, read through
  /// that descriptor, kept open (``pinned``).
  init(basePath: String?, size: UInt64, descriptor: Int32? = nil) {
    self.basePath = basePath
    self.baseValid = size
    self.size = size
    self.descriptor = descriptor
    self.pinned = descriptor != nil
  }

  /// Where the next bytes that may not be zero start at or after `offset`: the first write
  /// reaching past it, or the real file's next data below ``baseValid`` (`SEEK_DATA` on its
  /// descriptor; `offset` where the file system cannot tell); `nil` when neither follows.
  mutating func nextData(from offset: UInt64) throws(StoreError) -> UInt64? {
    guard offset < size else { return nil }
    var next: UInt64?
    for write in writes where write.offset + UInt64(write.bytes.count) > offset {
      next = min(next ?? .max, max(write.offset, offset))
    }
    if let basePath, offset < baseValid {
      let descriptor = try realDescriptor(basePath)
      let found = lseek(descriptor, off_t(clamping: offset), PosixFileSystem.seekData)
      if found >= 0 {
        if UInt64(found) < baseValid { next = min(next ?? .max, max(UInt64(found), offset)) }
      } else if errno != ENXIO {
        return offset
      }
    }
    return next
  }

  /// Reads up to `buffer.count` bytes at `offset`: zeros, then the real file's bytes below
  /// ``baseValid`` (zeros where it has become shorter), then the writes in order.
  mutating func read(into buffer: UnsafeMutableRawBufferPointer, at offset: UInt64)
    throws(StoreError) -> Int
  {
    guard offset < size, let base = buffer.baseAddress else { return 0 }
    let count = Int(min(UInt64(buffer.count), size - offset))
    // memset: a debug build initializes memory generically, a byte at a time.
    memset(base, 0, count)
    if let basePath, offset < baseValid {
      let wanted = Int(min(UInt64(count), baseValid - offset))
      let descriptor = try realDescriptor(basePath)
      var done = 0
      while done < wanted {
        let got = pread(descriptor, base + done, wanted - done, off_t(offset) + off_t(done))
        if got > 0 {
          done += got
        } else if got == 0 {
          break
        } else if errno != EINTR {
          throw StoreError.system("pread", StoreErrno(rawValue: errno), path: basePath)
        }
      }
    }
    let end = offset + UInt64(count)
    for write in writes {
      let writeEnd = write.offset + UInt64(write.bytes.count)
      guard write.offset < end, writeEnd > offset else { continue }
      let from = max(write.offset, offset)
      let to = min(writeEnd, end)
      write.bytes.withUnsafeBytes { source in
        guard let source = source.baseAddress else { return }
        (base + Int(from - offset)).copyMemory(
          from: source + Int(from - write.offset), byteCount: Int(to - from))
      }
    }
    return count
  }

  /// Records a write of `bytes` at `offset`, growing the file if it reaches past the end.
  mutating func write(_ bytes: [UInt8], at offset: UInt64) {
    guard !bytes.isEmpty else { return }
    if let last = writes.last, last.offset + UInt64(last.bytes.count) == offset {
      writes[writes.count - 1].bytes.append(contentsOf: bytes)
    } else {
      writes.append((offset, bytes))
    }
    size = max(size, offset + UInt64(bytes.count))
  }

  /// Cuts or zero-extends the file to `newSize`.
  mutating func truncate(to newSize: UInt64) {
    baseValid = min(baseValid, newSize)
    writes = writes.compactMap { write in
      guard write.offset < newSize else { return nil }
      let keep = Int(min(UInt64(write.bytes.count), newSize - write.offset))
      return (write.offset, Array(write.bytes.prefix(keep)))
    }
    size = newSize
  }

  /// Closes the real file's descriptor, if open and not pinned (or with `force`).
  mutating func closeDescriptor(force: Bool = false) {
    guard !pinned || force else { return }
    if let descriptor { _ = close(descriptor) }
    descriptor = nil
  }

  private mutating func realDescriptor(_ path: String) throws(StoreError) -> Int32 {
    if let descriptor { return descriptor }
    var opened: Int32
    repeat {
      opened = open(path, O_RDONLY | O_CLOEXEC)
    } while opened < 0 && errno == EINTR
    guard opened >= 0 else {
      throw StoreError.system("open", StoreErrno(rawValue: errno), path: path)
    }
    descriptor = opened
    return opened
  }

  /// What opening a listed name found.
  enum Opened {
    /// A regular file, opened and pinned.
    case file(OverlayFile)
    /// A directory.
    case directory
    /// Something else.
    case special
    /// Nothing any more: removed since it was listed.
    case vanished
  }

  /// Opens the real file at `path` read-only and keeps it open, with its size as it is now.
  ///
  /// - Throws: The `open` or `fstat` error, other than the name being gone (`.vanished`).
  static func openPinned(_ path: String) throws(StoreError) -> Opened {
    var descriptor: Int32
    repeat {
      descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    } while descriptor < 0 && errno == EINTR
    guard descriptor >= 0 else {
      let error = StoreErrno(rawValue: errno)
      if error == .noSuchFile { return .vanished }
      throw StoreError.system("open", error, path: path)
    }
    var info = stat()
    guard fstat(descriptor, &info) == 0 else {
      let error = StoreErrno(rawValue: errno)
      _ = close(descriptor)
      throw StoreError.system("fstat", error, path: path)
    }
    let type = UInt32(info.st_mode) & UInt32(S_IFMT)
    guard type == UInt32(S_IFREG) else {
      _ = close(descriptor)
      return type == UInt32(S_IFDIR) ? .directory : .special
    }
    return .file(
      OverlayFile(basePath: path, size: UInt64(clamping: info.st_size), descriptor: descriptor))
  }
}
