/// One disk a crash can leave: its files (all durable) and a replayable description of which
/// pending operations it kept.
struct CrashImage: Sendable {
  /// Path to contents.
  let files: [String: [UInt8]]
  /// The directories (always durable).
  let directories: Set<String>
  /// Which pending operations were lost, kept, torn or garbled.
  let description: String

  /// A fresh disk holding the image, with no pending operations, handles or locks.
  func makeFileSystem() -> SimulatedFileSystem {
    SimulatedFileSystem(durableFiles: files, directories: directories)
  }
}
