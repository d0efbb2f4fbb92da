/// An open file of a ``FileSystem``.
///
/// A plain value: the descriptor (or the simulated file system's handle number) and the path it
/// was opened with, for error messages. It is valid until passed to ``FileSystem/close(_:)``.
public struct StoreFileHandle: Hashable, Sendable, CustomStringConvertible {
  /// The file descriptor, or the simulated file system's handle number.
  public let descriptor: Int32
  /// The path the file was opened with.
  public let path: String

  /// Creates a handle; file systems call this, users receive handles from
  /// ``FileSystem/open(_:_:)``.
  public init(descriptor: Int32, path: String) {
    self.descriptor = descriptor
    self.path = path
  }

  /// `path (fd N)`.
  public var description: String { "\(path) (fd \(descriptor))" }
}
