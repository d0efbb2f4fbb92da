/// Paths as the overlay keys them: `//` collapsed, `.` components and a trailing `/` dropped,
/// so that every spelling of a name finds the same entry.
enum OverlayPath {
  /// The normal spelling of `path`.
  static func normalize(_ path: String) -> String {
    let absolute = path.hasPrefix("/")
    let parts = path.split(separator: "/", omittingEmptySubsequences: true).filter { $0 != "." }
    let joined = parts.joined(separator: "/")
    if absolute { return "/" + joined }
    return joined.isEmpty ? "." : joined
  }

  /// The directory holding `path` (normalized).
  static func parent(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    if slash == path.startIndex { return "/" }
    return String(path[..<slash])
  }

  /// `path` and every directory above it, outermost first (`/a/b` → `/`, `/a`, `/a/b`).
  static func ancestry(of path: String) -> [String] {
    var chain = [path]
    var current = path
    while current != "/" && current != "." {
      current = parent(of: current)
      chain.append(current)
    }
    return chain.reversed()
  }
}
