import Testing

@testable import StoicTesting

@Suite struct SimulatedPathTests {
  /// Normalisation by splitting and joining: what `normalize` does for paths that are not
  /// canonical, and must agree with for those its byte scan passes through.
  static func splitAndJoin(_ path: String) -> String {
    let absolute = path.hasPrefix("/")
    let components = path.split(separator: "/", omittingEmptySubsequences: true)
      .filter { $0 != "." }
    if components.isEmpty { return absolute ? "/" : "." }
    let joined = components.joined(separator: "/")
    return absolute ? "/" + joined : joined
  }

  @Test func spellingsOfOnePathNormaliseAlike() {
    #expect(SimulatedPath.normalize("a//b") == "a/b")
    #expect(SimulatedPath.normalize("./a/b") == "a/b")
    #expect(SimulatedPath.normalize("a/b/") == "a/b")
    #expect(SimulatedPath.normalize("/a/./b") == "/a/b")
    #expect(SimulatedPath.normalize("//") == "/")
    #expect(SimulatedPath.normalize("") == ".")
    #expect(SimulatedPath.normalize("a/..") == "a/..")
    #expect(SimulatedPath.normalize(".a/b.") == ".a/b.")
  }

  /// Every path of up to seven characters from `a`, `.`, `/` and `é`: the byte scan lets a
  /// path through unchanged exactly when splitting and joining gives it back.
  @Test func theByteScanAgreesWithSplittingAndJoining() {
    let alphabet = ["a", ".", "/", "é"]
    var paths = [""]
    var checked = 0
    for _ in 1...7 {
      paths = paths.flatMap { path in alphabet.map { path + $0 } }
      for path in paths {
        let expected = Self.splitAndJoin(path)
        #expect(SimulatedPath.isNormalized(path) == (expected == path), "\(path)")
        #expect(SimulatedPath.normalize(path) == expected, "\(path)")
        checked += 1
      }
    }
    #expect(checked == 21_844)
  }
}
