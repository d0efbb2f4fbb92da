extension AtomicFile {
  /// How an ``AtomicFile`` is written and read.
  public struct Options: Sendable, Hashable {
    /// Wrap the payload in the `STAF` checksum envelope, so a reader can tell a corrupt file
    /// from a valid one. Default `true`.
    public var envelope: Bool
    /// Keep the previous generation as `<path>.previous` and fall back to it when the current
    /// file is unusable. Default `true`.
    public var keepPrevious: Bool
    /// How many quarantined `<path>.corrupt-N` files are kept (the newest). Default 8.
    public var quarantineLimit: Int
    /// Free space required beyond the file's own size before a write starts. Default 1 MiB.
    public var preflightMargin: UInt64
    /// Files larger than this are not read into memory; they are quarantined as unusable.
    /// Default 64 MiB.
    public var maxFileSize: UInt64
    /// The permission bits each new generation gets, whatever the umask. Default
    /// ``FilePermissions/privateFile`` (`0600`): only the owner can read it. A file other
    /// programs or users must read (a shared settings file) asks for more, for example
    /// ``FilePermissions/readableByAll`` (`0644`). The previous generation and quarantined
    /// copies keep the bits they were written with (they are renamed, not copied).
    public var permissions: FilePermissions

    /// Creates options; every parameter has the default described on its property.
    public init(
      envelope: Bool = true,
      keepPrevious: Bool = true,
      quarantineLimit: Int = 8,
      preflightMargin: UInt64 = 1 << 20,
      maxFileSize: UInt64 = 64 << 20,
      permissions: FilePermissions = .privateFile
    ) {
      self.envelope = envelope
      self.keepPrevious = keepPrevious
      self.quarantineLimit = max(1, quarantineLimit)
      self.preflightMargin = preflightMargin
      self.maxFileSize = maxFileSize
      self.permissions = permissions
    }
  }

  /// What ``AtomicFile/read(validate:)`` found.
  public struct ReadResult: Sendable, Hashable {
    /// The payload (without the envelope).
    public var bytes: [UInt8]
    /// The generation it came from.
    public var source: Source

    /// Creates a result.
    public init(bytes: [UInt8], source: Source) {
      self.bytes = bytes
      self.source = source
    }
  }

  /// The generation a read came from.
  public enum Source: Sendable, Hashable {
    /// `<path>` itself.
    case current
    /// `<path>.previous`, because the current file was missing or unusable.
    case previous
  }
}
