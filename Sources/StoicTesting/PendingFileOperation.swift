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
      PendingFileOperation.write(bytes[...], at: offset, into: &contents)
    case .truncate(let size):
      PendingFileOperation.resize(&contents, to: size)
    }
  }

  /// Writes `bytes` at `offset`, zero-filling from the old end when the write starts past it.
  static func write(_ bytes: ArraySlice<UInt8>, at offset: Int, into contents: inout [UInt8]) {
    if offset > contents.count {
      contents.append(contentsOf: repeatElement(0, count: offset - contents.count))
    }
    let overlap = min(bytes.count, contents.count - offset)
    if overlap > 0 {
      contents.replaceSubrange(
        offset..<(offset + overlap), with: bytes[bytes.startIndex..<(bytes.startIndex + overlap)])
    }
    if overlap < bytes.count {
      contents.append(contentsOf: bytes[(bytes.startIndex + overlap)...])
    }
  }

  /// Cuts or zero-extends `contents` to `size` bytes.
  static func resize(_ contents: inout [UInt8], to size: Int) {
    if size < contents.count {
      contents.removeSubrange(size...)
    } else if size > contents.count {
      contents.append(contentsOf: repeatElement(0, count: size - contents.count))
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
