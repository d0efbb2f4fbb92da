/// The request line and header fields of one HTTP/1.x request, as parsed.
struct HTTPRequestHead: Sendable {
  /// `GET`, `POST`, …
  var method: String
  /// The path, without the query.
  var path: String
  /// 0 for HTTP/1.0, 1 for HTTP/1.1.
  var minorVersion: Int
  /// The header fields in order (names as sent).
  var headers: [(name: String, value: String)]
  /// The declared body length (0 without `Content-Length`).
  var contentLength: Int

  /// The first field named `name` (any case).
  func header(_ name: String) -> String? {
    headers.first { $0.name.lowercased() == name.lowercased() }?.value
  }

  /// Whether the connection stays open after the response: HTTP/1.1 unless `Connection:
  /// close`; HTTP/1.0 only with `Connection: keep-alive`.
  var keepAlive: Bool {
    let tokens = (header("Connection") ?? "").lowercased().split(separator: ",").map {
      $0.trimmingCharacters(in: " \t")
    }
    return minorVersion >= 1 ? !tokens.contains("close") : tokens.contains("keep-alive")
  }

  /// Whether the client asked for `100 Continue` before it sends the body.
  var expectsContinue: Bool {
    header("Expect")?.lowercased().trimmingCharacters(in: " \t") == "100-continue"
  }
}

extension Substring {
  /// The substring without leading and trailing characters in `set`.
  func trimmingCharacters(in set: String) -> String {
    var slice = self
    while let first = slice.first, set.contains(first) { slice = slice.dropFirst() }
    while let last = slice.last, set.contains(last) { slice = slice.dropLast() }
    return String(slice)
  }
}

extension String {
  /// The string without leading and trailing characters in `set`.
  func trimmingCharacters(in set: String) -> String {
    Substring(self).trimmingCharacters(in: set)
  }
}
