public import StoicStore

/// The `FileMapping` of a ``SimulatedFileSystem``: each write is a pending write of the
/// mapped file, lost, torn or kept by a crash exactly as a positional write is, so code that
/// writes through mappings is crash-tested at every point like code that uses `pwrite`.
///
/// A write beyond the file's current end (a real process would die of `SIGBUS`) throws
/// `StoreError.Code.io` instead, so a caller that cuts a mapped file shows up in tests.
public final class SimulatedFileMapping: FileMapping {
  /// How many bytes from the start of the file are mapped.
  public let length: UInt64
  private let fileSystem: SimulatedFileSystem
  private let number: Int
  private let path: String

  init(fileSystem: SimulatedFileSystem, number: Int, length: UInt64, path: String) {
    self.fileSystem = fileSystem
    self.number = number
    self.length = length
    self.path = path
  }

  deinit {
    let number = self.number
    fileSystem.state.withLock { $0.unmap(number) }
  }

  /// The offset below which ``release(below:)`` gave the pages back (0 once closed).
  public var released: UInt64 {
    let number = self.number
    return fileSystem.state.withLock { $0.mappings[number]?.released ?? 0 }
  }

  /// Lets `fill` store `count` bytes (into a buffer of zeros), then records them as a pending
  /// write of the file at `offset`.
  ///
  /// - Throws: `StoreError.Code.invalidArgument` outside `[released, length)`;
  ///   `StoreError.Code.closed` after ``close()``; `StoreError.Code.io` beyond the file's
  ///   current end.
  public func write(
    count: Int, at offset: UInt64, _ fill: (UnsafeMutableRawBufferPointer) -> Void
  ) throws(StoreError) {
    let number = self.number
    let released = fileSystem.state.withLock { $0.mappings[number]?.released }
    guard let released else {
      throw StoreError(.closed, "the mapping of \(path) is closed", path: path)
    }
    try checkRange(offset: offset, count: count, released: released, path: path)
    var bytes = [UInt8](repeating: 0, count: count)
    bytes.withUnsafeMutableBytes { fill($0) }
    let filled = bytes
    try fileSystem.state.withLock { (state) throws(StoreError) in
      try state.writeMapped(number, filled, at: offset, path: path)
    }
  }

  /// Refuses later writes below `offset` rounded down to a page of 4 KiB (the pages a real
  /// mapping would unmap); the file is untouched.
  ///
  /// - Throws: `StoreError.Code.closed` after ``close()``.
  public func release(below offset: UInt64) throws(StoreError) {
    let number = self.number
    let bound = releaseBound(below: offset, pageSize: Self.pageSize)
    try fileSystem.state.withLock { (state) throws(StoreError) in
      try state.release(number, below: bound, path: path)
    }
  }

  /// The page size the simulated disk's mappings release in.
  static let pageSize: UInt64 = 4096

  /// Forgets the mapping; what was written stays pending in the file.
  public func close() throws(StoreError) {
    let number = self.number
    fileSystem.state.withLock { $0.unmap(number) }
  }
}
