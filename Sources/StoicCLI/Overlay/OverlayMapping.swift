import StoicStore

/// The ``FileMapping`` of an ``OverlayFileSystem``: each write is kept in memory like a
/// positional write; a write beyond the file's current end (where a real process would die of
/// `SIGBUS`) throws `StoreError/Code/io` instead.
final class OverlayMapping: FileMapping {
  let length: UInt64
  private let fileSystem: OverlayFileSystem
  private let number: Int
  private let path: String
  static let pageSize: UInt64 = 4096

  init(fileSystem: OverlayFileSystem, number: Int, length: UInt64, path: String) {
    self.fileSystem = fileSystem
    self.number = number
    self.length = length
    self.path = path
  }

  deinit {
    let number = self.number
    fileSystem.state.withLock { _ = $0.mappings.removeValue(forKey: number) }
  }

  var released: UInt64 {
    let number = self.number
    return fileSystem.state.withLock { $0.mappings[number]?.released ?? 0 }
  }

  func write(count: Int, at offset: UInt64, _ fill: (UnsafeMutableRawBufferPointer) -> Void)
    throws(StoreError)
  {
    let number = self.number
    guard let released = fileSystem.state.withLock({ $0.mappings[number]?.released }) else {
      throw StoreError(.closed, "the mapping of \(path) is closed", path: path)
    }
    try checkRange(offset: offset, count: count, released: released, path: path)
    var bytes = [UInt8](repeating: 0, count: count)
    bytes.withUnsafeMutableBytes { fill($0) }
    let filled = bytes
    let path = self.path
    try fileSystem.state.withLock { (state) throws(StoreError) in
      guard let mapping = state.mappings[number] else {
        throw StoreError(.closed, "the mapping of \(path) is closed", path: path)
      }
      let size = state.files[mapping.file]?.size ?? 0
      guard offset <= size, UInt64(filled.count) <= size - offset else {
        throw StoreError(
          .io, "mapped write at \(offset) beyond the end (\(size)) of the file", path: path)
      }
      state.files[mapping.file]?.write(filled, at: offset)
      state.note("write \(OverlayPath.normalize(path))")
    }
  }

  func release(below offset: UInt64) throws(StoreError) {
    let number = self.number
    let bound = releaseBound(below: offset, pageSize: Self.pageSize)
    let path = self.path
    try fileSystem.state.withLock { (state) throws(StoreError) in
      guard let mapping = state.mappings[number] else {
        throw StoreError(.closed, "the mapping of \(path) is closed", path: path)
      }
      state.mappings[number]?.released = max(mapping.released, bound)
    }
  }

  func close() throws(StoreError) {
    let number = self.number
    fileSystem.state.withLock { _ = $0.mappings.removeValue(forKey: number) }
  }
}
