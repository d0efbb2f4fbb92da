/// A change to a file's data that is not yet durable: it is lost, kept, torn or garbled by a
/// crash, and made durable by a sync of the file.
enum PendingFileOperation: Sendable, Hashable {
  /// `bytes` written at `offset`.
  case write(offset: Int, bytes: [UInt8])
  /// The file cut or zero-extended to `size`.
  case truncate(size: Int)

  /// Applies the operation to `contents`, zero-filling any gap a write leaves.
  func apply(to contents: inout [UInt8]) {
    switch self {
    case .write(let offset, let bytes):
      PendingFileOperation.write(bytes, count: bytes.count, at: offset, into: &contents)
    case .truncate(let size):
      PendingFileOperation.resize(&contents, to: size)
    }
  }

  /// Writes the first `count` of `bytes` at `offset`, zero-filling from the old end when the
  /// write starts past it.
  static func write(_ bytes: [UInt8], count: Int, at offset: Int, into contents: inout [UInt8]) {
    let count = min(max(count, 0), bytes.count)
    let end = offset + count
    if end > contents.count { resize(&contents, to: end) }
    contents.withUnsafeMutableBytes { destination in
      bytes.withUnsafeBytes { source in
        guard count > 0, let target = destination.baseAddress, let origin = source.baseAddress
        else { return }
        (target + offset).copyMemory(from: origin, byteCount: count)
      }
    }
  }

  /// Cuts or zero-extends `contents` to `size` bytes.
  static func resize(_ contents: inout [UInt8], to size: Int) {
    if size < contents.count {
      contents.removeSubrange(size...)
    } else if size > contents.count {
      let old = contents
      contents = [UInt8](unsafeUninitializedCapacity: size) { buffer, initialized in
        let raw = UnsafeMutableRawBufferPointer(buffer)
        old.withUnsafeBytes { source in
          if let target = raw.baseAddress, let origin = source.baseAddress {
            target.copyMemory(from: origin, byteCount: source.count)
          }
        }
        if let target = raw.baseAddress {
          (target + old.count).initializeMemory(
            as: UInt8.self, repeating: 0, count: size - old.count)
        }
        initialized = size
      }
    }
  }

  /// `write 12 bytes at 0` or `truncate to 40`.
  var summary: String {
    switch self {
    case .write(let offset, let bytes): "write \(bytes.count) bytes at \(offset)"
    case .truncate(let size): "truncate to \(size)"
    }
  }
}
