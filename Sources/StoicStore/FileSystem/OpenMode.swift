/// How ``FileSystem/open(_:_:)`` opens a file.
public enum OpenMode: Sendable, Hashable {
  /// Read only; the file must exist.
  case readOnly
  /// Read and write; the file must exist.
  case readWrite
  /// Read and write, creating the file if it does not exist.
  case createOrOpen
  /// Read and write, creating the file; fails with ``StoreError/Code/alreadyExists`` if it
  /// exists (`O_CREAT | O_EXCL`).
  case createExclusive
}
