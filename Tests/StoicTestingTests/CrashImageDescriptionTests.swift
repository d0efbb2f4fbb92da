import StoicStore
import StoicTesting
import Testing

/// Crash image descriptions say exactly what each pending operation became, so a failing
/// image can be rebuilt by reading it.
@Suite struct CrashImageDescriptionTests {
  @Test func smallGroupsListEveryOperation() throws {
    let disk = TestDisk.withDurableFile("dir/file", "")
    let handle = try disk.open("dir/file", .readWrite)
    try disk.write(handle, Array("abcd".utf8), at: 0)
    try disk.truncate(handle, to: 2)
    try TestDisk.write("x", to: "dir/new", on: disk)
    let descriptions = disk.crashImages(limit: 1000).map(\.description)
    #expect(descriptions.first?.contains("op 1 create dir/new (inode 2) lost") == true)
    #expect(
      descriptions.contains {
        $0.contains("inode 1 (dir/file): op 1 write 4 bytes at 0 torn after 3 of 4 bytes")
          && $0.contains("op 2 truncate to 2 lost")
      })
    #expect(descriptions.contains { $0.contains("write 4 bytes at 0 garbage (SplitMix64 seed 0x") })
    // Images that are the same disk are checked once: a torn write the truncate cuts away is
    // the same disk as the whole write cut by it.
    #expect(
      !descriptions.contains { $0.contains("torn after 3 of 4 bytes, op 2 truncate to 2 kept") })
  }

  @Test func descriptionMatchesTheImage() throws {
    let disk = TestDisk.withDurableFile("file", "")
    let handle = try disk.open("file", .readWrite)
    try disk.write(handle, Array("abcd".utf8), at: 0)
    for image in disk.crashImages(limit: 1000) {
      let contents = try #require(image.files["file"])
      if image.description.contains("torn after 2 of 4") {
        #expect(contents == Array("ab".utf8))
      } else if image.description.contains("kept") {
        #expect(contents == Array("abcd".utf8))
      } else if image.description.contains("lost") {
        #expect(contents == [])
      }
    }
  }

  @Test func largeGroupsAreSummarised() throws {
    let disk = TestDisk.withDurableFile("log", "")
    let handle = try disk.open("log", .readWrite)
    for index in 0..<20 {
      try disk.write(handle, [UInt8(index)], at: UInt64(index))
    }
    let images = disk.crashImages(limit: 30)
    #expect(images[0].description == "inode 1 (log): 20 pending, none kept, rest lost")
    #expect(images[1].description == "inode 1 (log): 20 pending, kept 1-20, rest lost")
    for image in images {
      let contents = try #require(image.files["log"])
      // Kept ranges name exactly the bytes that are there.
      if let range = image.description.firstMatch(of: /kept ([0-9-]+), rest lost/) {
        let bounds = range.1.split(separator: "-").compactMap { Int($0) }
        let last = bounds.last ?? 0
        #expect(contents.count == last, "\(image)")
      }
    }
  }
}
