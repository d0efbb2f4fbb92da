import StoicStore
import Testing

/// The store's path helpers split at the last `/` byte, whatever characters surround it.
@Suite struct StorePathTests {
  @Test func directoryAndName() {
    #expect(StorePath.directory(of: "a/b/c.log") == "a/b")
    #expect(StorePath.name(of: "a/b/c.log") == "c.log")
    #expect(StorePath.directory(of: "c.log") == ".")
    #expect(StorePath.name(of: "c.log") == "c.log")
    #expect(StorePath.directory(of: "/c.log") == "/")
    #expect(StorePath.name(of: "/c.log") == "c.log")
    #expect(StorePath.directory(of: "é/ü") == "é")
    #expect(StorePath.name(of: "é/ü") == "ü")
    #expect(StorePath.join("a/", "b") == "a/b")
    #expect(StorePath.join("a", "b") == "a/b")
  }

  /// A name that starts with a combining mark forms one `Character` with the `/` before it;
  /// the split is still at that `/`, as the kernel's is.
  @Test func aCombiningMarkAfterTheSlashDoesNotHideIt() {
    let path = "dir/\u{301}name"
    #expect(StorePath.directory(of: path) == "dir")
    #expect(StorePath.name(of: path) == "\u{301}name")
    #expect(StorePath.join(StorePath.directory(of: path), StorePath.name(of: path)) == path)
  }
}
