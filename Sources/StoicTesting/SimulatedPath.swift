import StoicStore

/// Path normalisation for ``SimulatedFileSystem``: the simulated disk keys files by a
/// canonical spelling, so `a//b`, `./a/b` and `a/b/` name the same thing.
enum SimulatedPath {
  /// `path` without empty and `.` components and without a trailing slash; `"."` for an empty
  /// relative path and `"/"` for the root.
  static func normalize(_ path: String) -> String {
    let absolute = path.hasPrefix("/")
    let components = path.split(separator: "/", omittingEmptySubsequences: true)
      .filter { $0 != "." }
    if components.isEmpty { return absolute ? "/" : "." }
    let joined = components.joined(separator: "/")
    return absolute ? "/" + joined : joined
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
