/// One disk a crash can leave: its files (all durable) and a replayable description of which
/// pending operations it kept, lost, tore or garbled.
public struct CrashImage: Sendable, CustomStringConvertible {
  /// Path (normalised: no `./`, no trailing or doubled slash) to contents.
  public let files: [String: [UInt8]]
  /// The directories the crash left (durable ones and the kept pending ones, each only where
  /// its parent is), normalised.
  public let directories: Set<String>
  /// Which pending operations were lost, kept, torn (after how many bytes) or garbled (with
  /// which seed), per directory and file. Built when read.
  public var description: String { describer.text }
  /// Builds ``description``.
  let describer: LazyText
  /// A hash of the disk the image leaves (``files`` and ``directories``): what the explorer
  /// tells images apart by. See ``diskHash(files:directories:)``.
  let diskHash: Int

  /// Creates an image (the crash model does; tests may plant one).
  public init(files: [String: [UInt8]], directories: Set<String>, description: String) {
    self.init(files: files, directories: directories, describer: LazyText(description))
  }

  /// Creates an image whose description is built when read.
  init(
    files: [String: [UInt8]], directories: Set<String>, describer: LazyText, diskHash: Int? = nil
  ) {
    self.files = files
    self.directories = directories
    self.describer = describer
    self.diskHash = diskHash ?? Self.diskHash(files: files, directories: directories)
  }

  /// A hash of a disk's files and directories, equal for equal disks whatever the order of
  /// the dictionary.
  ///
  /// Each file's bytes are hashed as one buffer: hashing `[String: [UInt8]]` itself feeds the
  /// hasher a byte at a time, which was most of an exploration's time (every image is hashed
  /// to skip duplicates).
  static func diskHash(files: [String: [UInt8]], directories: Set<String>) -> Int {
    var filesHash = 0
    for (path, bytes) in files {
      var hasher = Hasher()
      hasher.combine(path)
      hasher.combine(bytes.count)
      bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
      // Order-independent, as a dictionary's own hash is.
      filesHash = filesHash &+ hasher.finalize()
    }
    var hasher = Hasher()
    hasher.combine(files.count)
    hasher.combine(filesHash)
    hasher.combine(directories)
    return hasher.finalize()
  }

  /// A fresh disk holding the image: everything durable, no pending operations, handles,
  /// locks or faults.
  public func makeFileSystem() -> SimulatedFileSystem {
    SimulatedFileSystem(durableFiles: files, directories: directories)
  }
}

/// Text built only when read: crash image descriptions are long and almost never read (only
/// for violations), so the explorer does not build one for every image it checks.
struct LazyText: Sendable {
  private let make: @Sendable () -> String

  /// Text that is already built.
  init(_ text: String) { make = { text } }

  /// Text built by `make` each time it is read.
  init(building make: @escaping @Sendable () -> String) { self.make = make }

  /// The text.
  var text: String { make() }
}
