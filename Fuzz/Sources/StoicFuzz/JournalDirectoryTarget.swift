import StoicTesting

@testable import StoicStore

/// Whole journal directories, byte for byte: segments (`.log` and `.zst`), a checkpoint, stale
/// temporaries and quarantined copies, with salvage off and on (see ``JournalImage``), checked
/// by ``JournalReopenCheck``. Checksums stop most mutations at the first frame or block, so
/// this target mostly explores damage; ``JournalStructuredTarget`` gets past them.
enum JournalDirectoryTarget {
  static let target = FuzzTarget(
    name: "journal-directory",
    summary: "journal directories byte for byte; whatever open accepts, a reopen accepts too",
    maxLength: 32 << 10,
    run: { bytes in
      let (disk, options) = JournalImage.decode(bytes)
      JournalReopenCheck.run(disk, options: options)
    },
    seeds: { JournalSeeds.directories().map { JournalImage.encode(flags: $0.flags, $0.files) } })
}
