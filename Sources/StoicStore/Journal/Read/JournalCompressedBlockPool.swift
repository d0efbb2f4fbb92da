/// The blocks finished reads of compressed segments gave back, for the next read.
///
/// A block's buffers hold about 1 MiB of decompressed bytes and as much of rebuilt payloads.
/// Fresh buffers cost a page fault per 4 KiB on the first block each one decodes, which was
/// about a third of the time of an open and replay of a 10 MiB journal; reused ones are already
/// mapped. A pool keeps at most ``capacity`` blocks, and none that grew beyond ``bytesLimit``
/// (one that held a very large record), so what stays allocated between reads is bounded.
final class JournalCompressedBlockPool: Sendable {
  /// The pool every journal of the process reads with: one pair of blocks, each kept only
  /// while it holds at most 4 MiB.
  static let shared = JournalCompressedBlockPool(capacity: 2, bytesLimit: 4 << 20)

  /// The most blocks kept.
  let capacity: Int
  /// The most bytes a block may hold to be kept.
  let bytesLimit: Int
  private let blocks = SleepingLock<[JournalCompressedBlock]>([])

  init(capacity: Int, bytesLimit: Int) {
    self.capacity = capacity
    self.bytesLimit = bytesLimit
  }

  /// How many blocks are kept now.
  var count: Int { blocks.withLock { $0.count } }

  /// Two blocks for one read: kept ones first, new ones for the rest.
  func borrowPair() -> [JournalCompressedBlock] {
    var pair = blocks.withLock { kept -> [JournalCompressedBlock] in
      let taken = Array(kept.suffix(2))
      kept.removeLast(taken.count)
      return taken
    }
    while pair.count < 2 { pair.append(JournalCompressedBlock()) }
    return pair
  }

  /// Takes back the blocks of a finished read (no worker may still be decoding into them),
  /// keeping those within ``bytesLimit`` up to ``capacity``; their decoded records are set
  /// aside, taken back only by a decode of the same stored bytes (`JournalCompressedBlock`).
  func giveBack(_ returned: [JournalCompressedBlock]) {
    let kept = returned.filter { $0.heldBytes <= bytesLimit }
    for block in kept { block.clear() }
    blocks.withLock { pooled in
      pooled.append(contentsOf: kept.prefix(max(0, capacity - pooled.count)))
    }
  }
}
