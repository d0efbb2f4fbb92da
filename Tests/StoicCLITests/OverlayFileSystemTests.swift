import Foundation
import StoicCLI
import StoicStore
import Testing

/// The copy-on-write overlay: reads from the real disk, every change kept in memory.
@Suite("overlay file system")
struct OverlayFileSystemTests {
  @Test("changes are seen through the overlay and never reach the disk")
  func copyOnWrite() throws {
    try StoicProcess.withScratch { scratch in
      let real = PosixFileSystem()
      let path = scratch + "/file"
      let handle = try real.open(path, .createOrOpen)
      try real.write(handle, Array("0123456789".utf8), at: 0)
      try real.close(handle)
      let before = try StoreFixtures.fingerprint(scratch)

      let overlay = OverlayFileSystem()
      let opened = try overlay.open(path, .readWrite)
      try overlay.write(opened, Array("ab".utf8), at: 2)
      try overlay.write(opened, Array("XYZ".utf8), at: 12)
      #expect(try overlay.size(opened) == 15)
      #expect(
        String(decoding: try overlay.read(opened, count: 20, at: 0), as: UTF8.self)
          == "01ab456789\0\0XYZ")
      try overlay.truncate(opened, to: 4)
      try overlay.truncate(opened, to: 6)
      #expect(
        try overlay.read(opened, count: 10, at: 0) == Array("01ab".utf8) + [0, 0],
        "cut bytes come back as zeros")
      try overlay.sync(opened)
      try overlay.lock(opened)
      try overlay.close(opened)

      try overlay.createDirectory(scratch + "/new/deeper")
      let created = try overlay.open(scratch + "/new/deeper/made", .createExclusive)
      try overlay.write(created, [1, 2, 3], at: 0)
      try overlay.close(created)
      try overlay.rename(path, to: scratch + "/new/renamed")
      #expect(try overlay.list(scratch) == ["new"])
      #expect(try overlay.list(scratch + "/new") == ["deeper", "renamed"])
      #expect(try overlay.fileSize(scratch + "/new/renamed") == 6)
      #expect(try overlay.fileSize(path) == nil)
      try overlay.remove(scratch + "/new/deeper/made")
      #expect(try overlay.list(scratch + "/new/deeper") == [])
      #expect(try overlay.syncDirectory(scratch + "/new") == ())
      #expect(
        overlay.changes == [
          "write \(scratch)/file", "truncate \(scratch)/file to 4 bytes",
          "truncate \(scratch)/file to 6 bytes", "create directory \(scratch)/new",
          "create directory \(scratch)/new/deeper", "create \(scratch)/new/deeper/made",
          "write \(scratch)/new/deeper/made", "rename \(scratch)/file to \(scratch)/new/renamed",
          "remove \(scratch)/new/deeper/made",
        ])
      #expect(try StoreFixtures.fingerprint(scratch) == before, "the disk is untouched")
    }
  }

  @Test("errors are the ones a real disk gives")
  func errors() throws {
    try StoicProcess.withScratch { scratch in
      let overlay = OverlayFileSystem()
      let missing = scratch + "/missing"
      #expect(throws: StoreError.self) { try overlay.open(missing, .readOnly) }
      do throws(StoreError) {
        _ = try overlay.open(missing, .readWrite)
      } catch {
        #expect(error.code == .notFound)
        #expect(error.errno == .noSuchFile)
      }
      let made = try overlay.open(scratch + "/made", .createExclusive)
      do throws(StoreError) {
        _ = try overlay.open(scratch + "/made", .createExclusive)
        Issue.record("an exclusive create of an existing file succeeded")
      } catch {
        #expect(error.code == .alreadyExists)
      }
      do throws(StoreError) {
        _ = try overlay.open(scratch + "/no/such/dir/file", .createOrOpen)
        Issue.record("a create in a missing directory succeeded")
      } catch {
        #expect(error.code == .notFound)
      }
      let readOnly = try overlay.open(scratch + "/made", .readOnly)
      #expect(throws: StoreError.self) { try overlay.write(readOnly, [1], at: 0) }
      #expect(throws: StoreError.self) { try overlay.truncate(readOnly, to: 0) }
      try overlay.close(readOnly)
      #expect(throws: StoreError.self) { try overlay.close(readOnly) }
      #expect(throws: StoreError.self) { try overlay.remove(missing) }
      #expect(throws: StoreError.self) { try overlay.list(missing) }
      try overlay.close(made)
      #expect(try FileManager.default.contentsOfDirectory(atPath: scratch).isEmpty)
    }
  }

  @Test("a mapping's writes are kept in memory; beyond the end they fail as SIGBUS would")
  func mapping() throws {
    try StoicProcess.withScratch { scratch in
      let overlay = OverlayFileSystem()
      let handle = try overlay.open(scratch + "/mapped", .createOrOpen)
      let mapping = try overlay.map(handle, length: 8192)
      #expect(try overlay.size(handle) == 8192)
      try Array("hello".utf8).withUnsafeBytes { try mapping.write($0, at: 100) }
      #expect(try overlay.read(handle, count: 5, at: 100) == Array("hello".utf8))
      try overlay.truncate(handle, to: 50)
      #expect(throws: StoreError.self) {
        try [UInt8](repeating: 1, count: 4).withUnsafeBytes { try mapping.write($0, at: 60) }
      }
      try mapping.release(below: 4096)
      #expect(mapping.released == 4096)
      try mapping.close()
      #expect(throws: StoreError.self) {
        try [UInt8](repeating: 1, count: 4).withUnsafeBytes { try mapping.write($0, at: 4100) }
      }
      try overlay.close(handle)
      #expect(try FileManager.default.contentsOfDirectory(atPath: scratch).isEmpty)
    }
  }

  @Test("the library's own open and recovery run over it: a torn tail is cut in memory only")
  func journalOverOverlay() throws {
    try StoicProcess.withScratch { scratch in
      let directory = scratch + "/journal"
      try StoreFixtures.journal(directory, records: 50)
      let active = try StoreFixtures.activeSegment(directory)
      try StoreFixtures.append(active, [0x20, 0, 0, 0, 9, 9])
      let before = try StoreFixtures.fingerprint(scratch)
      let overlay = OverlayFileSystem()
      let journal = try Journal.open(
        directory: directory, fileSystem: overlay, options: StoreFixtures.journalOptions())
      #expect(journal.recovery.truncatedBytes == 6)
      #expect(try journal.records().map(\.payload) == (1...50).map(StoreFixtures.payload))
      _ = try journal.append(Array("only in memory".utf8))
      try journal.close()
      #expect(overlay.changes.contains { $0.hasPrefix("truncate \(active) to ") })
      #expect(try StoreFixtures.fingerprint(scratch) == before)
      let again = try Journal.open(
        directory: directory, fileSystem: overlay, options: StoreFixtures.journalOptions())
      #expect(try again.records().last?.payload == Array("only in memory".utf8))
      try again.close()
    }
  }
}
