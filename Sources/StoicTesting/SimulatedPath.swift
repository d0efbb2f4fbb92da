import StoicStore

/// Path normalisation for ``SimulatedFileSystem``: the simulated disk keys files by a
/// canonical spelling, so `a//b`, `./a/b` and `a/b/` name the same thing.
enum SimulatedPath {
  /// `path` without empty and `.` components and without a trailing slash; `"."` for an empty
  /// relative path and `"/"` for the root.
  static func normalize(_ path: String) -> String {
    // Almost every path the stores build is canonical already: a byte scan instead of a split
    // and a join (the split was a tenth of a journal fuzz target's time).
    if isNormalized(path) { return path }
    let absolute = path.hasPrefix("/")
    let components = path.split(separator: "/", omittingEmptySubsequences: true)
      .filter { $0 != "." }
    if components.isEmpty { return absolute ? "/" : "." }
    let joined = components.joined(separator: "/")
    return absolute ? "/" + joined : joined
  }

  /// Whether `path` is its own normalised spelling: not empty, no empty or `.` component, no
  /// trailing slash (the root and `.` aside).
  static func isNormalized(_ path: String) -> Bool {
    let slash = UInt8(ascii: "/")
    let dot = UInt8(ascii: ".")
    var atComponentStart = true
    var componentIsDot = false
    for (offset, byte) in path.utf8.enumerated() {
      if byte == slash {
        if offset == 0 { continue }
        if atComponentStart || componentIsDot { return false }
        atComponentStart = true
      } else {
        componentIsDot = atComponentStart && byte == dot
        atComponentStart = false
      }
    }
    return path == "/" || path == "." || (!atComponentStart && !componentIsDot)
  }

  /// The directory holding the (normalised) `path`.
  static func parent(of path: String) -> String {
    StorePath.directory(of: path)
  }

  /// The directories from the root down to `path` itself (normalised), for `createDirectory`.
  static func ancestry(of path: String) -> [String] {
    var chain: [String] = []
    var current = path
    while current != "." && current != "/" {
      chain.append(current)
      current = parent(of: current)
    }
    return chain.reversed()
  }
}
