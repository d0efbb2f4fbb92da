import Foundation
import Testing

/// A directory made with `mkdtemp` under `/tmp` for one test, removed with all it holds.
enum PosixScratchDirectory {
  /// Why a helper could not set up.
  struct SetupError: Error, CustomStringConvertible {
    /// What failed.
    let description: String
  }

  /// Makes a fresh directory, passes its path to `body`, and removes it afterwards, whether
  /// `body` returned or threw.
  static func with<Result>(_ body: (String) throws -> Result) throws -> Result {
    let path = try make()
    defer { remove(path) }
    return try body(path)
  }

  /// Makes a fresh directory `/tmp/stoic-posix-XXXXXX` (mode 0700).
  static func make() throws -> String {
    var template = Array("/tmp/stoic-posix-XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else {
      throw SetupError(description: "mkdtemp failed with errno \(errno)")
    }
    return String(cString: made)
  }

  /// Removes the directory and everything in it.
  static func remove(_ path: String) {
    try? FileManager.default.removeItem(atPath: path)
  }
}

@Suite("Scratch directories for the POSIX tests")
struct PosixScratchDirectoryTests {
  @Test("a scratch directory is made under /tmp and removed afterwards, also after a throw")
  func madeAndRemoved() throws {
    struct Planned: Error {}
    var seen = ""
    #expect(throws: Planned.self) {
      try PosixScratchDirectory.with { path in
        seen = path
        var isDirectory: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory))
        #expect(isDirectory.boolValue)
        _ = FileManager.default.createFile(atPath: path + "/inside", contents: Data([1, 2, 3]))
        throw Planned()
      }
    }
    #expect(seen.hasPrefix("/tmp/stoic-posix-"))
    #expect(seen.count == "/tmp/stoic-posix-".count + 6)
    #expect(!FileManager.default.fileExists(atPath: seen))
  }
}
