/// Small, Foundation-free helpers for the `/`-separated paths the store uses.
public enum StorePath {
  /// The directory holding `path` (`"."` for a bare name, `"/"` for a file at the root).
  public static func directory(of path: String) -> String {
    guard let slash = lastSlash(path) else { return "." }
    if slash == path.startIndex { return "/" }
    return String(path[..<slash])
  }

  /// The last component of `path`.
  public static func name(of path: String) -> String {
    guard let slash = lastSlash(path) else { return path }
    return String(path[path.utf8.index(after: slash)...])
  }

  /// The index of the last `/` byte, found in the UTF-8 view: a path's separator is a byte,
  /// and searching for it as a `Character` walks grapheme clusters from the end (the most of
  /// what listing a directory on the simulated disk cost).
  private static func lastSlash(_ path: String) -> String.Index? {
    path.utf8.lastIndex(of: UInt8(ascii: "/"))
  }

  /// `directory/name`, without doubling a trailing slash.
  public static func join(_ directory: String, _ name: String) -> String {
    directory.hasSuffix("/") ? directory + name : directory + "/" + name
  }
}
