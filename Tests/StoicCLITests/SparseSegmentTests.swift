import Foundation
import StoicStore
import StoicTesting
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A segment with a large hole (a sparse file of a huge apparent size) is read in the time its
/// data takes: the journal's scan skips holes unread (`SEEK_DATA`), in the library's open and
/// in `stoic verify` alike.
@Suite("A sparse segment: holes skipped unread")
struct SparseSegmentTests {
  static let apparentSize: off_t = 8 << 30

  @Test("an 8 GiB hole after the records: opened and verified reading about the data only")
  func holesAreSkipped() throws {
    try StoicProcess.withScratch { scratch in
      let directory = scratch + "/journal"
      let journal = try Journal.open(directory: directory, fileSystem: PosixFileSystem())
      for index in 0..<100 { _ = try journal.append(Array("record \(index)".utf8)) }
      try journal.close()
      let names = try FileManager.default.contentsOfDirectory(atPath: directory)
      let segment = try #require(names.first { $0.hasSuffix(".log") })
      #expect(truncate(directory + "/" + segment, Self.apparentSize) == 0)

      let metered = MeteredFileSystem(PosixFileSystem())
      let reopened = try Journal.open(
        directory: directory, fileSystem: metered,
        options: JournalOptions(mappedAppends: false))
      #expect(try reopened.records().count == 100)
      try reopened.close()
      // Holes would be 8 GiB of zeros to read; the data and a window or two are what is read.
      #expect(metered.counts.bytesRead < 64 << 20, "\(metered.counts.bytesRead) bytes read")

      let verify = try StoicProcess.run(["verify", directory])
      #expect(verify.status == 0, "\(verify)")
      #expect(verify.output.contains("100 records read"), "\(verify)")
    }
  }
}
