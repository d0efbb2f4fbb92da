/// The check of a compressed segment's two ends, without reading its blocks: its header, its
/// trailer (record count, last sequence) and its size, and that they are what its name records
/// where it records them (``JournalFileNames/CompressedSummary``).
///
/// An open makes it for a segment named in the earlier form (whose name records nothing); a
/// read makes it before it hands out any record of a segment whose name records its summary,
/// so a segment found not to be what its name says is refused (or, by a salvaging journal, set
/// aside) before any of its records was handed out.
enum JournalCompressedEnds {
  /// What the ends hold.
  struct Ends: Sendable, Hashable {
    /// The last sequence the trailer claims (0 when it holds no record).
    var lastSequence: UInt64
    /// The record count the trailer claims.
    var records: UInt64
    /// The file's size.
    var bytes: UInt64

    /// Where its records end: the last sequence, or the first sequence - 1 when it holds none.
    func end(segmentFirst: UInt64) -> UInt64 { records == 0 ? segmentFirst - 1 : lastSequence }
  }

  /// Checks the ends of the compressed segment open as `handle` (`path`, starting at
  /// `segmentFirst`), and that they are `summary` if it is given.
  /// - Throws: ``StoreError/Code/corrupt`` (its cause a ``JournalDamage`` naming `path`) for
  ///   ends that fail to check; the file system's errors.
  static func check(
    _ handle: StoreFileHandle, path: String, segmentFirst: UInt64,
    summary: JournalFileNames.CompressedSummary?, fileSystem: any FileSystem
  ) throws(StoreError) -> Ends {
    func corrupt(_ why: String, at offset: UInt64) -> StoreError {
      StoreError(
        .corrupt, "compressed journal segment is damaged at offset \(offset): \(why)",
        path: path, cause: JournalDamage(path: path, offset: offset, length: 0))
    }
    let size = try fileSystem.size(handle)
    if let summary, summary.bytes != size {
      throw corrupt("the segment is \(size) bytes, its name records \(summary.bytes)", at: 0)
    }
    let headerSize = JournalCompressedSegment.headerSize
    let trailerSize = JournalCompressedSegment.trailerSize
    guard size >= UInt64(headerSize + trailerSize) else {
      throw corrupt("the segment ends without its trailer", at: 0)
    }
    let header = try fileSystem.read(handle, count: headerSize, at: 0)
    let trailerOffset = size - UInt64(trailerSize)
    let trailerBytes = try fileSystem.read(handle, count: trailerSize, at: trailerOffset)
    let trailer: JournalCompressedSegment.Trailer
    do throws(JournalCompressedSegment.Damage) {
      try JournalCompressedSegment.checkHeader(header, segmentFirst: segmentFirst)
      trailer = try JournalCompressedSegment.decodeTrailerBlock(trailerBytes, at: trailerOffset)
    } catch {
      throw corrupt(error.reason, at: error.offset)
    }
    guard trailer.records == 0 || trailer.lastSequence >= segmentFirst else {
      throw corrupt("its trailer claims sequences before the segment", at: trailerOffset)
    }
    let ends = Ends(lastSequence: trailer.lastSequence, records: trailer.records, bytes: size)
    if let summary,
      summary.records != ends.records || summary.end != ends.end(segmentFirst: segmentFirst)
    {
      throw corrupt(
        "its trailer claims \(ends.records) records through \(ends.end(segmentFirst: segmentFirst)), "
          + "its name records \(summary.records) through \(summary.end)", at: trailerOffset)
    }
    return ends
  }
}
