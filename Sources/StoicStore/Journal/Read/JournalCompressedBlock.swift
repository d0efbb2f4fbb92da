/// One data block of a compressed segment on its way from stored bytes to rebuilt records,
/// with the buffers it reuses from block to block.
///
/// A ``JournalCompressedReader`` owns two and may decode one on a worker thread while it
/// decodes the other: the reader hands a block over only after filling ``stored``, and touches
/// it again only after the worker signalled that ``decode(maxRecordSize:payloadLimit:)``
/// returned, so no two threads ever use one concurrently (hence `@unchecked Sendable`).
final class JournalCompressedBlock: @unchecked Sendable {
  /// The block's kind (raw or zstd) and its stored bytes, CRC-checked by the reader.
  var kind: UInt8 = 0
  var stored: [UInt8] = []
  var rawLength = 0
  /// Where the block starts in the segment (for error messages).
  var position: UInt64 = 0
  /// Decompressed bytes; only grows (its first ``rawLength`` bytes hold this block).
  private var raw: [UInt8] = []
  /// The payloads, back to back; record `i` ends at `ends[i]`. Only grows.
  private(set) var payloads: [UInt8] = []
  private(set) var ends: [Int] = []
  private var columns: [Int] = []
  /// The first record's sequence once decoded.
  private(set) var first: UInt64 = 0
  /// Why the last decode failed, or `nil`.
  private(set) var failure: String?
  private let decompressor = Zstd.Decompressor()

  /// Bytes held by this block's buffers.
  var heldBytes: Int {
    stored.capacity + raw.capacity + payloads.capacity
      + (ends.capacity + columns.capacity) * MemoryLayout<Int>.stride
  }

  /// Forgets the decoded records (keeps the storage).
  func clear() {
    ends.removeAll(keepingCapacity: true)
  }

  /// Decompresses (kind zstd) and checks the block's records, rebuilding them into
  /// ``payloads``; on failure ``failure`` says why and there are no records. Never hands
  /// damaged bytes anywhere: the stored bytes passed their CRC, the decompressor refuses what
  /// does not decompress to exactly ``rawLength`` bytes, and the records' structure is
  /// checked before any is used.
  func decode(maxRecordSize: Int, payloadLimit: Int) {
    failure = nil
    ends.removeAll(keepingCapacity: true)
    let source: [UInt8]
    if kind == JournalCompressedSegment.kindZstd {
      if raw.count < rawLength {
        raw.append(contentsOf: repeatElement(0, count: rawLength - raw.count))
      }
      let length = rawLength
      let decompressor = self.decompressor
      let outcome: Result<Void, StoreError> = stored.withUnsafeBytes { input in
        raw.withUnsafeMutableBytes { output in
          do throws(StoreError) {
            try decompressor.decompress(
              input, into: UnsafeMutableRawBufferPointer(rebasing: output[0..<length]))
            return .success(())
          } catch {
            return .failure(error)
          }
        }
      }
      if case .failure(let error) = outcome {
        failure = "block does not decompress to its size (\(error.message))"
        return
      }
      source = raw
    } else {
      source = stored
    }
    let length = min(rawLength, source.count)
    let decoded = source.withUnsafeBytes { input in
      JournalRecordBlock.decode(
        UnsafeRawBufferPointer(rebasing: input[0..<length]), maxRecordSize: maxRecordSize,
        payloadLimit: payloadLimit, payloads: &payloads, ends: &ends, columns: &columns)
    }
    guard let decoded else {
      ends.removeAll(keepingCapacity: true)
      failure = "block records do not check"
      return
    }
    first = decoded.first
  }
}
