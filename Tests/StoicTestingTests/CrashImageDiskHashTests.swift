import Testing

@testable import StoicTesting

/// The hash the explorer tells crash images apart by: equal for equal disks, different when
/// any byte, name or directory differs.
@Suite struct CrashImageDiskHashTests {
  @Test func equalDisksHashAlikeWhateverTheInsertionOrder() {
    var forward: [String: [UInt8]] = [:]
    var backward: [String: [UInt8]] = [:]
    let names = (0..<50).map { "dir/file\($0)" }
    for name in names { forward[name] = Array(name.utf8) }
    for name in names.reversed() { backward[name] = Array(name.utf8) }
    #expect(
      CrashImage.diskHash(files: forward, directories: [".", "dir"])
        == CrashImage.diskHash(files: backward, directories: ["dir", "."]))
    let image = CrashImage(files: forward, directories: ["dir"], description: "planted")
    #expect(image.diskHash == CrashImage.diskHash(files: forward, directories: ["dir"]))
  }

  @Test func anyDifferenceChangesTheHash() {
    let files: [String: [UInt8]] = ["a": [1, 2, 3], "b": [4, 5]]
    let base = CrashImage.diskHash(files: files, directories: ["."])
    var byte = files
    byte["a"] = [1, 2, 4]
    var length = files
    length["b"] = [4, 5, 0]
    let moved: [String: [UInt8]] = ["a": [1, 2], "b": [3, 4, 5]]
    var renamed = files
    renamed["c"] = renamed.removeValue(forKey: "b")
    let others = [
      CrashImage.diskHash(files: byte, directories: ["."]),
      CrashImage.diskHash(files: length, directories: ["."]),
      CrashImage.diskHash(files: moved, directories: ["."]),
      CrashImage.diskHash(files: renamed, directories: ["."]),
      CrashImage.diskHash(files: files, directories: [".", "d"]),
      CrashImage.diskHash(files: ["a": [1, 2, 3]], directories: ["."]),
    ]
    for (index, other) in others.enumerated() { #expect(other != base, "variant \(index)") }
    #expect(CrashImage.diskHash(files: [:], directories: ["."]) != base)
  }
}
