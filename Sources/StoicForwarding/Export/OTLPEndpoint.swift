/// An OTLP/HTTP endpoint, checked in full where it is configured: a URL that can never work is
/// refused there, with a typed error, instead of being retried for ever as a network error.
///
/// The form is `http[s]://host[:port][/path][?query]`, in ASCII:
///
/// - the scheme `http` or `https`, in any case;
/// - a host: a name of letters, digits, `-`, `.` and `_`, or an IPv6 address in brackets
///   (`[::1]`); no user name or password (`user:pw@`: credentials go in a header,
///   `OTEL_EXPORTER_OTLP_HEADERS`);
/// - a port, when given, of ASCII digits in 1…65535 (`host:` without digits is refused);
/// - a path and a query of visible ASCII characters; no fragment (`#`), no space, no control
///   character, nothing beyond ASCII (a fullwidth digit, say).
///
/// Messages name what is wrong, never the URL (a query may carry a token).
public struct OTLPEndpoint: Sendable, Hashable, CustomStringConvertible {
  /// `http` or `https`, lower case.
  public let scheme: String
  /// The host, without the brackets of an IPv6 address.
  public let host: String
  /// The port given in the URL, if any.
  public let port: UInt16?
  /// The path: empty, or starting with `/`.
  public let path: String
  /// The query, without its `?`, if the URL has one.
  public let query: String?

  /// Parses and checks `url`.
  ///
  /// - Throws: ``ForwardingError/Code/invalidArgument`` saying what is wrong (never the URL).
  public init(_ url: String) throws(ForwardingError) {
    guard url.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
      throw Self.refused("contains a space, a control character or a character beyond ASCII")
    }
    guard let schemeEnd = url.range(of: "://") else {
      throw Self.refused("must start with http:// or https://")
    }
    let scheme = url[..<schemeEnd.lowerBound].lowercased()
    guard scheme == "http" || scheme == "https" else {
      throw Self.refused("must start with http:// or https://")
    }
    let rest = url[schemeEnd.upperBound...]
    guard !rest.contains("#") else {
      throw Self.refused("has a fragment (#…), which a request cannot carry")
    }
    let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
    let authority = rest[..<authorityEnd]
    guard !authority.contains("@") else {
      throw Self.refused(
        "has a user name or password (user:password@): give credentials in a header instead")
    }
    let (host, port) = try Self.hostAndPort(authority)
    let tail = rest[authorityEnd...]
    let queryStart = tail.firstIndex(of: "?")
    self.scheme = scheme
    self.host = host
    self.port = port
    path = String(tail[..<(queryStart ?? tail.endIndex)])
    query = queryStart.map { String(tail[tail.index(after: $0)...]) }
  }

  /// The port requests go to: the given one, else 80 for `http` and 443 for `https`.
  public var effectivePort: UInt16 { port ?? (scheme == "https" ? 443 : 80) }

  /// `host[:port]`, the host in brackets when it is an IPv6 address: the `Host` header's value.
  public var authority: String {
    let name = host.contains(":") ? "[\(host)]" : host
    return port.map { "\(name):\($0)" } ?? name
  }

  /// The path and query a request line names: `/` for an empty path.
  public var requestTarget: String {
    (path.isEmpty ? "/" : path) + (query.map { "?" + $0 } ?? "")
  }

  /// The URL: `scheme://authority` then the path and the query.
  public var description: String {
    "\(scheme)://\(authority)" + path + (query.map { "?" + $0 } ?? "")
  }

  /// This endpoint with `component` joined to its path by one slash (a trailing slash of the
  /// path dropped), the query kept: `http://h:4318/base?tenant=1` and `v1/logs` give
  /// `http://h:4318/base/v1/logs?tenant=1`.
  public func appendingPath(_ component: String) -> OTLPEndpoint {
    var base = Substring(path)
    while base.hasSuffix("/") { base = base.dropLast() }
    var tail = Substring(component)
    while tail.hasPrefix("/") { tail = tail.dropFirst() }
    return OTLPEndpoint(
      scheme: scheme, host: host, port: port, path: base + "/" + tail, query: query)
  }

  private init(scheme: String, host: String, port: UInt16?, path: String, query: String?) {
    self.scheme = scheme
    self.host = host
    self.port = port
    self.path = path
    self.query = query
  }

  /// The host and the port of an authority (`host`, `host:port`, `[v6]`, `[v6]:port`).
  private static func hostAndPort(_ authority: Substring) throws(ForwardingError) -> (
    String, UInt16?
  ) {
    let host: Substring
    let portText: Substring?
    if authority.hasPrefix("[") {
      guard let close = authority.firstIndex(of: "]") else {
        throw refused("has an IPv6 address without its closing bracket")
      }
      host = authority[authority.index(after: authority.startIndex)..<close]
      let after = authority[authority.index(after: close)...]
      guard after.isEmpty || after.hasPrefix(":") else {
        throw refused("has characters after its IPv6 address's closing bracket")
      }
      portText = after.isEmpty ? nil : after.dropFirst()
      guard host.contains(":"), host.utf8.allSatisfy(isIPv6Byte) else {
        throw refused("has an IPv6 address that is not one")
      }
    } else {
      let colon = authority.firstIndex(of: ":")
      host = authority[..<(colon ?? authority.endIndex)]
      portText = colon.map { authority[authority.index(after: $0)...] }
      guard !host.isEmpty else { throw refused("has no host") }
      guard host.utf8.allSatisfy(isHostNameByte) else {
        throw refused("has a host with a character a host name cannot hold")
      }
    }
    guard let portText else { return (String(host), nil) }
    guard !portText.isEmpty else { throw refused("has a ':' without a port after it") }
    guard portText.utf8.count <= 5, portText.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
      let number = Int(portText), (1...65535).contains(number)
    else {
      throw refused("has a port that is not a number in 1…65535")
    }
    return (String(host), UInt16(number))
  }

  private static func isHostNameByte(_ byte: UInt8) -> Bool {
    (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A)
      || (byte >= 0x61 && byte <= 0x7A)
      || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_")
  }

  private static func isIPv6Byte(_ byte: UInt8) -> Bool {
    (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x46)
      || (byte >= 0x61 && byte <= 0x66)
      || byte == UInt8(ascii: ":") || byte == UInt8(ascii: ".")
  }

  private static func refused(_ what: String) -> ForwardingError {
    ForwardingError(.invalidArgument, "the endpoint " + what)
  }
}
