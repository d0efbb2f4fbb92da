/// Reads a file through one buffer of bounded size, so scanning a segment of any length keeps
/// at most `max(window, largest frame)` bytes in memory.
struct JournalWindowReader {
  let fileSystem: any FileSystem
  let handle: StoreFileHandle
  /// Bytes of the file the reader may see (a reader of the active segment stops at the end it
  /// captured, even if appends continue).
  let fileSize: UInt64
  /// The preferred read size.
  let window: Int
  private(set) var buffer: [UInt8] = []
  private(set) var bufferStart: UInt64 = 0
  /// The largest buffer held so far.
  private(set) var peakBytes = 0

  init(fileSystem: any FileSystem, handle: StoreFileHandle, fileSize: UInt64, window: Int) {
    self.fileSystem = fileSystem
    self.handle = handle
    self.fileSize = fileSize
    self.window = max(window, JournalFrame.headerSize * 4)
  }

  /// Makes `[offset, offset + count)` (clipped at the end of the file) available in ``buffer``
  /// and returns the index in ``buffer`` where `offset` is.
  mutating func load(at offset: UInt64, count: Int) throws(StoreError) -> Int {
    guard offset <= fileSize else { return buffer.count }
    let wanted = min(UInt64(count), fileSize - offset)
    if offset >= bufferStart, offset + wanted <= bufferStart + UInt64(buffer.count) {
      return Int(offset - bufferStart)
    }
    let readCount = Int(min(fileSize - offset, UInt64(max(window, count))))
    // Reuses the buffer's storage: one window-sized allocation per reader, not one per read.
    do throws(StoreError) {
      // Static, so that `buffer` stays uniquely referenced (a method on `self` would keep a
      // second reference to it for the call and make the read copy it first).
      try Self.read(
        fileSystem: fileSystem, handle: handle, fileSize: fileSize, at: offset, count: readCount,
        into: &buffer)
    } catch {
      buffer.removeAll(keepingCapacity: true)
      throw error
    }
    bufferStart = offset
    peakBytes = max(peakBytes, buffer.count)
    return 0
  }

  /// Reads `[offset, offset + count)` (clipped at the end of the file) straight into `target`,
  /// replacing its contents and reusing its storage, without going through the window.
  func read(at offset: UInt64, count: Int, into target: inout [UInt8]) throws(StoreError) {
    try Self.read(
      fileSystem: fileSystem, handle: handle, fileSize: fileSize, at: offset, count: count,
      into: &target)
  }

  private static func read(
    fileSystem: any FileSystem, handle: StoreFileHandle, fileSize: UInt64, at offset: UInt64,
    count: Int, into target: inout [UInt8]
  ) throws(StoreError) {
    let wanted = offset <= fileSize ? Int(min(UInt64(max(count, 0)), fileSize - offset)) : 0
    if target.count > wanted {
      target.removeSubrange(wanted...)
    } else if target.count < wanted {
      if wanted > target.capacity { target = [] }
      target.append(contentsOf: repeatElement(0, count: wanted - target.count))
    }
    let outcome: Result<Int, StoreError> = target.withUnsafeMutableBytes { out in
      do throws(StoreError) {
        return .success(try fileSystem.read(handle, into: out, at: offset))
      } catch {
        return .failure(error)
      }
    }
    let got = try outcome.get()
    if got < wanted { target.removeSubrange(got...) }
  }

  /// A copy of `[offset, offset + count)`; `count` must not exceed the window or one frame.
  mutating func bytes(at offset: UInt64, count: Int) throws(StoreError) -> [UInt8] {
    let index = try load(at: offset, count: count)
    let end = min(buffer.count, index + count)
    return Array(buffer[index..<end])
  }
}
