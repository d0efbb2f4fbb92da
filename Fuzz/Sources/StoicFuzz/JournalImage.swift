import StoicTesting

@testable import StoicStore

/// A journal directory as one fuzz input, and back.
///
/// Layout: `flags:u8` (bit 0 salvage, bit 1 mapped appends, bit 2 compress sealed segments),
/// then files until the input ends, each `kind:u8 | first:u64 | length:u16 | bytes`. The kind
/// (modulo 6) names the file: 0 `journal-<first>.log`, 1 `journal-<first>.zst`, 2
/// `journal.checkpoint`, 3 a stale temporary `journal-<first>.zst.tmp`, 4 a quarantined copy
/// `journal-<first>.log.corrupt-0` (a name the opener must leave alone), 5 a compressed
/// segment whose name records a summary, `journal-<first>-<end>-<records>-<bytes>.zst`, the
/// three read after `first` (`end:u64 | records:u64 | bytes:u64`), true or not.
enum JournalImage {
  /// A file of the directory.
  struct File {
    var name: String
    var bytes: [UInt8]
  }

  /// The directory an input describes, written durably on a fresh simulated disk, and the
  /// options its flags choose.
  static func decode(_ bytes: [UInt8]) -> (disk: SimulatedFileSystem, options: JournalOptions) {
    var input = FuzzInput(bytes)
    let options = JournalReopenCheck.options(flags: input.byte())
    let disk = SimulatedFileSystem()
    try? disk.createDirectory(JournalReopenCheck.directory)
    while !input.isAtEnd {
      let kind = input.byte() % 6
      let first = input.uint64()
      var name = name(kind: kind, first: first)
      if kind == 5 {
        let summary = JournalFileNames.CompressedSummary(
          end: input.uint64(), records: input.uint64(), bytes: input.uint64())
        name = JournalFileNames.compressedSegment(first: first, summary: summary)
      }
      let length = Int(input.byte()) | Int(input.byte()) << 8
      let contents = input.take(length)
      disk.setDurableContents(StorePath.join(JournalReopenCheck.directory, name), contents)
    }
    return (disk, options)
  }

  /// The input describing `files` with `flags`; files with other names are left out.
  static func encode(flags: UInt8, _ files: [File]) -> [UInt8] {
    var bytes: [UInt8] = [flags]
    for file in files {
      guard let (kind, first) = kindAndFirst(of: file.name) else { continue }
      bytes.append(kind)
      bytes.appendLittleEndian(first)
      if kind == 5, let summary = JournalFileNames.parseSegment(file.name)?.summary {
        bytes.appendLittleEndian(summary.end)
        bytes.appendLittleEndian(summary.records)
        bytes.appendLittleEndian(summary.bytes)
      }
      let length = min(file.bytes.count, Int(UInt16.max))
      bytes.appendLittleEndian(UInt16(length))
      bytes += file.bytes.prefix(length)
    }
    return bytes
  }

  /// The files of the journal directory on `disk`.
  static func files(on disk: SimulatedFileSystem) -> [File] {
    let names = (try? disk.list(JournalReopenCheck.directory)) ?? []
    return names.compactMap { name in
      disk.contents(StorePath.join(JournalReopenCheck.directory, name)).map {
        File(name: name, bytes: $0)
      }
    }
  }

  static func name(kind: UInt8, first: UInt64) -> String {
    switch kind {
    case 0: JournalFileNames.segment(first: first, kind: .log)
    case 1: JournalFileNames.segment(first: first, kind: .compressed)
    case 2: JournalFileNames.checkpoint
    case 3:
      JournalFileNames.segment(first: first, kind: .compressed) + JournalFileNames.temporarySuffix
    default:
      JournalFileNames.quarantine(of: JournalFileNames.segment(first: first, kind: .log), offset: 0)
    }
  }

  static func kindAndFirst(of name: String) -> (UInt8, UInt64)? {
    if name == JournalFileNames.checkpoint { return (2, 0) }
    if let segment = JournalFileNames.parseSegment(name) {
      return (segment.kind == .log ? 0 : segment.summary == nil ? 1 : 5, segment.first)
    }
    return nil
  }
}
