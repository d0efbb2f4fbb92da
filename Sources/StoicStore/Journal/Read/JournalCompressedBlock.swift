#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One data block of a compressed segment on its way from stored bytes to rebuilt records,
/// with the buffers it reuses from block to block.
///
/// A block remembers what it last decoded: cleared (by its reader, or given back to the pool),
/// its records are set aside with the stored bytes they came from, and a decode of the same
/// stored bytes (compared byte for byte, with the same kind, length and limits) takes them back
/// instead of decompressing again. Decoding depends on nothing else, so what it takes back is
/// what decoding would give. A consumer that reads a segment a range at a time (a forwarder
/// forms batches of a thousand records, then reads each one again for its body, about five to a
/// block) decodes each block about once instead of once per range that touches it.
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
  /// How many decodes decompressed and rebuilt (those taken back are not counted).
  private(set) var decodes = 0
  private let decompressor = Zstd.Decompressor()
  /// What the last successful decode took as its input (with ``memoStored``) and where the
  /// block was, while ``payloads`` (and ``first``) still hold its records; `nil` once a decode
  /// started over them.
  private var memo: (inputs: DecodeInputs, position: UInt64)?
  /// The stored bytes of the last successful decode (swapped out of ``stored``, not copied).
  private var memoStored: [UInt8] = []
  /// The record ends of the last successful decode while the block is cleared.
  private var memoEnds: [Int] = []

  /// Everything a decode's result depends on besides the stored bytes.
  private struct DecodeInputs: Equatable {
    var kind: UInt8
    var rawLength: Int
    var maxRecordSize: Int
    var payloadLimit: Int
  }

  /// Bytes held by this block's buffers.
  var heldBytes: Int {
    stored.capacity + memoStored.capacity + raw.capacity + payloads.capacity
      + (ends.capacity + memoEnds.capacity + columns.capacity) * MemoryLayout<Int>.stride
  }

  /// Where the block this one last decoded lies in its segment, while its records can be
  /// taken back without decoding (if the stored bytes read there are the same).
  var rememberedPosition: UInt64? { memo?.position }

  /// Forgets the decoded records for its reader (keeps the storage); they stay set aside for a
  /// decode of the same stored bytes.
  func clear() {
    if !ends.isEmpty, memo != nil { swap(&ends, &memoEnds) }
    ends.removeAll(keepingCapacity: true)
  }

  /// Takes back the records of the last successful decode if `inputs` and the stored bytes
  /// are what it decoded; returns whether it did.
  private func takeBack(_ inputs: DecodeInputs) -> Bool {
    guard memo?.inputs == inputs, stored.count == memoStored.count else { return false }
    let same = stored.withUnsafeBytes { new in
      memoStored.withUnsafeBytes { old in
        guard let newBytes = new.baseAddress, let oldBytes = old.baseAddress else {
          return new.count == old.count
        }
        return memcmp(newBytes, oldBytes, new.count) == 0
      }
    }
    guard same else { return false }
    if ends.isEmpty { swap(&ends, &memoEnds) }
    guard !ends.isEmpty else { return false }
    memo?.position = position
    failure = nil
    return true
  }

  /// Decompresses (kind zstd) and checks the block's records, rebuilding them into
  /// ``payloads``; on failure ``failure`` says why and there are no records. Never hands
  /// damaged bytes anywhere: the stored bytes passed their CRC, the decompressor refuses what
  /// does not decompress to exactly ``rawLength`` bytes, and the records' structure is
  /// checked before any is used.
  func decode(maxRecordSize: Int, payloadLimit: Int) {
    let inputs = DecodeInputs(
      kind: kind, rawLength: rawLength, maxRecordSize: maxRecordSize, payloadLimit: payloadLimit)
    if takeBack(inputs) { return }
    memo = nil
    memoEnds.removeAll(keepingCapacity: true)
    decodes += 1
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
    memo = (inputs, position)
    swap(&stored, &memoStored)
  }
}
