import Dispatch
import Foundation
import StoicSettings
import StoicStore
import StoicTesting
import Synchronization
import Testing

/// Opening a hostile settings file on a thread with the stack Apple platforms give a
/// secondary thread: the nesting limit keeps decoding far from its end.
@Suite struct SettingsSmallStackTests {
  @Test("a hostile file 250 levels deep is refused on a thread with a 512 KiB stack")
  func deepFileOnASmallStack() throws {
    // A secondary thread on Apple platforms has 512 KiB: decoding 250 levels overflowed it.
    let deep = String(repeating: "[", count: 250) + String(repeating: "]", count: 250)
    let hidden = "// x\r{\"recent\":\(deep)}"
    #expect(try Self.openOnSmallStack(hidden).contains("nested deeper than 64"))
    // The deepest document accepted is decoded there with room to spare.
    let deepest =
      "{\"recent\":" + String(repeating: "[", count: 63) + String(repeating: "]", count: 63) + "}"
    // (It parses; the field, an array of strings, is then repaired to its default.)
    #expect(try Self.openOnSmallStack(deepest).contains("recent: array [[["))
  }

  /// Opens a hand-edited store over `text` on a thread with a 512 KiB stack; its issues.
  static func openOnSmallStack(_ text: String) throws -> String {
    let issues = SleepingLock<String?>(nil)
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
      let disk = SimulatedFileSystem()
      disk.setDurableContents(settingsPath, Array(text.utf8))
      let opened = try? openPrefs(on: disk, format: .handEdited)
      issues.withLock { $0 = opened.map { "\($0.issues)" } }
      done.signal()
    }
    thread.stackSize = 512 << 10
    thread.start()
    done.wait()
    return try #require(issues.withLock { $0 })
  }

}
