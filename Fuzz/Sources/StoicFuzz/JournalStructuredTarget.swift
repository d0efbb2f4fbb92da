import StoicTesting

@testable import StoicStore

/// Journal directories built from valid parts around fuzzed content: record frames and sync
/// markers with correct checksums, compressed segments made by the library's own block encoder,
/// a valid checkpoint, so that the fuzzer explores the opener's rules (order, gaps, overlaps,
/// duplicates, empty segments, sequences near the maximum, a torn or damaged tail) rather than
/// its checksums. Checked by ``JournalReopenCheck``.
///
/// The input is read as choices (see ``FuzzInput``): flags, an optional checkpoint, then up to
/// six segments, each a kind, where its first sequence lies relative to the last one, its
/// records' payloads and sequence steps, markers, and an optional tear or bit flip.
enum JournalStructuredTarget {
  static let target = FuzzTarget(
    name: "journal-structured",
    summary: "journal directories of valid frames and blocks; open agrees with reopen",
    maxLength: 4096,
    run: { bytes in
      let (disk, options) = build(bytes)
      JournalReopenCheck.run(disk, options: options)
    },
    seeds: {
      // A few shapes: one .log, .zst then .log, a checkpoint and three segments, a gap; then
      // findings kept as regression inputs.
      [
        [2, 0, 1, 0, 1, 3, 0, 5, 104, 101, 108, 108, 111, 0, 5, 119, 111, 114, 108, 100, 1],
        [6, 0, 2, 1, 1, 2, 0, 3, 1, 2, 3, 0, 3, 4, 5, 6, 0, 1, 2, 0, 2, 7, 8, 1, 0],
        [7, 1, 3, 3, 4, 0, 2, 0, 2, 9, 9, 0, 2, 8, 8, 1, 1, 1, 0, 1, 5, 0, 1, 2, 2, 0, 1, 6],
        [0, 0, 2, 0, 1, 1, 0, 1, 65, 0, 0, 5, 1, 0, 1, 66, 0],
        // A finding kept as a regression input: with salvage, records ending at 2^62 in a
        // `.log` after missing records, the files after it set aside, no active segment
        // possible (@O); a reopen used to take that `.log` for the segment after a torn seal.
        [
          123, 1, 7, 91, 11, 0, 4, 216, 132, 0, 10, 253, 2, 73, 110, 28, 5, 116, 4, 128, 217, 0,
          254, 253, 255, 75, 10, 6, 221, 0, 65, 20, 0, 19, 4, 0, 18, 0, 0, 0, 0, 0, 0, 0, 0, 254,
          63, 0, 2, 0, 141, 0, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11,
          11, 11, 11, 77, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11,
          11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11,
          11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11,
          11, 11, 11, 255, 255, 255,
        ],
      ]
    })

  /// A segment's bytes and its last sequence (0 when empty).
  struct Segment {
    var bytes: [UInt8]
    var last: UInt64
  }

  /// The disk and options an input describes.
  static func build(_ bytes: [UInt8]) -> (SimulatedFileSystem, JournalOptions) {
    var input = FuzzInput(bytes)
    let options = JournalReopenCheck.options(flags: input.byte())
    let disk = SimulatedFileSystem()
    let directory = JournalReopenCheck.directory
    try? disk.createDirectory(directory)
    var files: [String: [UInt8]] = [:]
    var lowWater: UInt64 = 0
    if input.bool() {
      lowWater = UInt64(input.int(in: 0...8))
      let checkpoint =
        input.bool()
        ? (try? JournalCheckpoint.snapshot(
          sequence: lowWater, bytes: input.bytes(upTo: 64), level: 1))
        : JournalCheckpoint.lowWater(lowWater)
      if let checkpoint { files[JournalFileNames.checkpoint] = checkpoint.encoded() }
    }
    var last: UInt64 = 0
    let count = input.int(in: 1...6)
    for _ in 0..<count {
      let compressed = input.byte() % 3 == 1
      let first = firstSequence(after: last, &input)
      var segment =
        compressed
        ? compressedSegment(first: first, &input) : logSegment(first: first, &input)
      last = max(segment.last, first - 1)
      damage(&segment.bytes, &input)
      let name = JournalFileNames.segment(first: first, kind: compressed ? .compressed : .log)
      if files[name] == nil { files[name] = segment.bytes }
    }
    for (name, contents) in files {
      disk.setDurableContents(StorePath.join(directory, name), contents)
    }
    return (disk, options)
  }

  /// Where the next segment starts: usually right after `last`, sometimes with a gap, an
  /// overlap, or near the largest sequence a frame may carry.
  static func firstSequence(after last: UInt64, _ input: inout FuzzInput) -> UInt64 {
    let choice = input.byte()
    switch choice % 8 {
    case 0...3: return last + 1
    case 4: return last + 2 + UInt64(input.int(in: 0...5))
    case 5:
      let back = UInt64(input.int(in: 0...3))
      return last > back ? last - back : 1
    case 6: return JournalFrame.maximumSequence - UInt64(input.int(in: 0...3))
    default: return max(1, UInt64(input.int(in: 1...12)))
    }
  }

  /// Records with sequences from `first` (each step usually 1, sometimes 0 or 2), as the
  /// library writes them.
  static func records(first: UInt64, _ input: inout FuzzInput) -> [(UInt64, [UInt8])] {
    var sequence = first
    var records: [(UInt64, [UInt8])] = []
    for index in 0..<input.int(in: 0...5) {
      if index > 0 {
        let step = input.byte() % 8
        sequence += step == 7 ? 2 : step == 6 ? 0 : 1
      }
      records.append((min(sequence, JournalFrame.maximumSequence), input.bytes(upTo: 96)))
    }
    return records
  }

  /// A `.log` segment: record frames, with a sync marker claiming what came before after some
  /// of them (the way a sync leaves one).
  static func logSegment(first: UInt64, _ input: inout FuzzInput) -> Segment {
    var bytes: [UInt8] = []
    var last: UInt64 = 0
    let records = records(first: first, &input)
    for (sequence, payload) in records {
      JournalFrame.appendRecord(sequence: sequence, payload: payload, to: &bytes)
      last = sequence
      if input.byte() % 4 == 0 {
        bytes += JournalFrame.marker(
          durableSequence: last, durableEnd: UInt64(bytes.count), segmentFirst: first,
          position: UInt64(bytes.count))
      }
    }
    return Segment(bytes: bytes, last: last)
  }

  /// A `.zst` segment made by the library's block encoder and trailer, as compression writes
  /// it (an empty one has no data block, as a compaction of nothing leaves it).
  static func compressedSegment(first: UInt64, _ input: inout FuzzInput) -> Segment {
    var bytes = JournalCompressedSegment.header(segmentFirst: first)
    var block = JournalRecordBlock.Encoder()
    let compressor = Zstd.Compressor()
    var count: UInt64 = 0
    var last: UInt64 = 0
    func flush() {
      guard !block.isEmpty,
        let data = try? JournalCompressedSegment.dataBlock(block, level: 1, compressor: compressor)
      else { return }
      bytes += data
      block.reset()
    }
    let records = records(first: first, &input)
    for (sequence, payload) in records {
      let split = input.byte() % 5 == 0
      payload.withUnsafeBytes { raw in
        if split || !block.accepts(sequence: sequence, payloadCount: raw.count, target: 1 << 20) {
          flush()
        }
        block.append(sequence: sequence, payload: raw)
      }
      count += 1
      last = sequence
    }
    flush()
    bytes += JournalCompressedSegment.trailer(records: count, lastSequence: last)
    return Segment(bytes: bytes, last: last)
  }

  /// Sometimes damages a segment as a crash or the disk would: cut its end (a torn write),
  /// flip a bit, or append zeros or garbage.
  static func damage(_ bytes: inout [UInt8], _ input: inout FuzzInput) {
    let choice = input.byte()
    guard !bytes.isEmpty else { return }
    let position = input.int(in: 0...65535) % bytes.count
    switch choice % 8 {
    case 5: bytes.removeLast(bytes.count - position)
    case 6: bytes[position] ^= 1 << (input.byte() % 8)
    case 7:
      bytes +=
        input.bool() ? [UInt8](repeating: 0, count: input.int(in: 1...64)) : input.bytes(upTo: 64)
    default: break
    }
  }
}
