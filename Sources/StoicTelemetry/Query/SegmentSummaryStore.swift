public import StoicStore

/// Where the summaries of a log journal's sealed segments are kept: one file per segment,
/// `segment-<first>.summary` (16 hex digits) in a directory of their own, beside the journal
/// rather than in it (`<spool>/summaries` for a ``TelemetrySpool``), so the journal's files
/// are never touched.
///
/// Summaries are derived data, written by the queries that read a segment whole:
///
/// - Each is written atomically and durably (`AtomicFile`: a temporary, synced, renamed
///   into place, the directory synced): a crash leaves the old file, the new, or none.
/// - One that is missing, fails its checksum, or covers another range than its segment now
///   holds is not used; the next query that reads the segment whole replaces it.
/// - One whose segment is gone (dropped by the forwarder, the quota or the age limit) is
///   removed by ``prune(before:)``.
///
/// Writes fail quietly when the directory is not writable (a reader without the owner's
/// rights): queries then read every segment, as they would without summaries.
public struct SegmentSummaryStore: Sendable {
  /// The directory the summaries are in.
  public let directory: String
  /// The door to the disk.
  public let fileSystem: any FileSystem
  /// Whether queries write the summaries they build (and prune stale ones).
  public let writable: Bool

  /// The directory of a telemetry spool's summaries: `<root>/summaries`.
  public static func directory(ofSpool root: String) -> String {
    StorePath.join(root, "summaries")
  }

  /// Summaries in `directory` (created when the first is written).
  ///
  /// - Parameters:
  ///   - directory: The folder that holds the summaries.
  ///   - fileSystem: The file system they are read and written through.
  ///   - writable: Whether queries may write and remove summaries; `false` only reads the
  ///     ones there.
  public init(
    directory: String, fileSystem: any FileSystem = PosixFileSystem(), writable: Bool = true
  ) {
    self.directory = directory
    self.fileSystem = fileSystem
    self.writable = writable
  }

  /// The largest summary file read: 64 KiB (a summary's labels take at most 16 KiB and 512
  /// bytes of lengths).
  public static let maximumFileSize: UInt64 = 64 << 10

  /// What looking a summary up found.
  public enum Lookup: Sendable, Hashable {
    /// A summary that checks and covers the range asked for.
    case valid(SegmentSummary)
    /// No summary file.
    case missing
    /// A file that does not check, or that covers another range.
    case invalid
  }

  /// The path of the summary of the segment starting at `first`.
  public func path(first: UInt64) -> String {
    let hex = String(first, radix: 16)
    return StorePath.join(
      directory,
      "segment-" + String(repeating: "0", count: max(0, 16 - hex.count)) + hex
        + ".summary")
  }

  /// The summary of the segment holding `first...last`, if a valid one is kept.
  public func lookup(first: UInt64, last: UInt64) -> Lookup {
    let path = path(first: first)
    let bytes: [UInt8]
    do throws(StoreError) {
      // Opened at once, without a look at the path first (a query looks up the summary of
      // every sealed segment): an open, a size, a read and a close.
      let handle: StoreFileHandle
      do throws(StoreError) {
        handle = try fileSystem.open(path, .readOnly)
      } catch  where error.code == .notFound {
        return .missing
      }
      defer { try? fileSystem.close(handle) }
      // A file larger than any summary is not read into memory.
      let size = try fileSystem.size(handle)
      guard size <= Self.maximumFileSize else { return .invalid }
      bytes = try fileSystem.read(handle, count: Int(size), at: 0)
    } catch {
      return .invalid
    }
    guard let summary = SegmentSummaryFormat.decode(bytes), summary.first == first,
      summary.last == last
    else { return .invalid }
    return .valid(summary)
  }

  /// Writes `summary` atomically and durably, replacing the one there.
  ///
  /// - Throws: The file system's errors (the directory cannot be made or written).
  public func save(_ summary: SegmentSummary) throws(StoreError) {
    if try !fileSystem.exists(directory) { try fileSystem.createDirectory(directory) }
    let file = AtomicFile(
      path: path(first: summary.first), fileSystem: fileSystem,
      options: AtomicFile.Options(envelope: false, keepPrevious: false, preflightMargin: 64 << 10))
    try file.write(SegmentSummaryFormat.encode(summary))
  }

  /// The first sequences of the segments summaries are kept for, in order.
  public func summarised() -> [UInt64] {
    let names = (try? fileSystem.list(directory)) ?? []
    return names.compactMap(Self.first(ofName:)).sorted()
  }

  /// Removes the summaries of segments starting before `first` (segments that were dropped).
  ///
  /// - Returns: How many were removed.
  @discardableResult
  public func prune(before first: UInt64) -> Int {
    var removed = 0
    for stale in summarised() where stale < first {
      if (try? fileSystem.remove(path(first: stale))) != nil { removed += 1 }
    }
    return removed
  }

  /// The first sequence in a summary's file name, or `nil` for another file.
  static func first(ofName name: String) -> UInt64? {
    guard name.hasPrefix("segment-"), name.hasSuffix(".summary") else { return nil }
    let hex = name.dropFirst("segment-".count).dropLast(".summary".count)
    guard hex.count == 16 else { return nil }
    return UInt64(hex, radix: 16)
  }
}

extension SegmentSummaryStore {
  /// Builds the summary of every sealed segment of `journal` that has no valid one (reading
  /// only those segments, checking only record headers and labels) and removes the summaries
  /// of dropped segments: what `stoic compact` does for a spool, and what a benchmark calls
  /// before it measures queries.
  ///
  /// - Returns: What the pass read (``LogQueryStatistics/summariesWritten`` counts the
  ///   summaries built).
  /// - Throws: The journal's errors other than damage to a segment.
  @discardableResult
  public func update(from journal: Journal) throws(StoreError) -> LogQueryStatistics {
    // Matches nothing: a summarised segment is skipped, any other is read whole for its
    // summary, and no record is decoded.
    try LogQuery(until: .min).run(on: journal, summaries: self) { _ in false }
  }
}
