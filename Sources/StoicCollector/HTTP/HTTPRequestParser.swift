internal import StoicForwarding

/// Parses the head of an HTTP/1.x request (RFC 9112) from untrusted bytes, within limits, and
/// says what is wrong with one it refuses: the status to answer and a message that names the
/// problem, never the bytes.
///
/// Accepted: `method SP origin-form SP HTTP/1.0|1.1 CRLF`, then fields `name: value CRLF`,
/// then CRLF. Refused: a request line over the limit (414), a head over the limit or too many
/// fields (431), another HTTP version (505), `Transfer-Encoding` (501: bodies must come with
/// `Content-Length`), conflicting or malformed `Content-Length`, obsolete line folding,
/// whitespace before a colon, control characters, and anything else malformed (400).
enum HTTPRequestParser {
  /// Why a head was refused.
  struct Refusal: Error, Equatable {
    /// The status to answer.
    var status: Int
    /// What was wrong (no request bytes in it).
    var message: String
  }

  /// Finds where a head ends as its bytes arrive, looking at each byte a bounded number of
  /// times however the bytes are split (a client sending one byte at a time costs no more
  /// than one sending all at once).
  struct Scanner {
    let limits: CollectorLimits
    /// Where the next search starts.
    private var searched = 0
    /// Where the request line ends, once found.
    private var requestLineEnd: Int? = nil

    init(limits: CollectorLimits) {
      self.limits = limits
    }

    /// Where the head ends in `buffer` (the index after its blank line), `nil` if it has not
    /// ended yet. `buffer` only grows between calls.
    ///
    /// - Throws: ``Refusal`` as soon as the bytes so far break a limit (so a client that
    ///   never ends its head cannot make the buffer grow past the limits).
    mutating func headEnd(in buffer: [UInt8]) throws(Refusal) -> Int? {
      let from = max(searched - 3, 0)
      searched = buffer.count
      if requestLineEnd == nil {
        requestLineEnd = HTTPRequestParser.find(
          HTTPRequestParser.crlf, in: buffer, from: max(from, 0))
      }
      // Until its CRLF is found, the line is what arrived, less a CR that may be its end's
      // first half (its LF still to come): the same bytes split anywhere meet the same limit.
      let lineLength = requestLineEnd ?? (buffer.last == 0x0D ? buffer.count - 1 : buffer.count)
      guard lineLength <= limits.maxRequestLineBytes else {
        throw Refusal(
          status: 414,
          message: "the request line is longer than \(limits.maxRequestLineBytes) bytes")
      }
      if let end = HTTPRequestParser.find(HTTPRequestParser.crlfcrlf, in: buffer, from: from) {
        guard end + 4 <= limits.maxHeadBytes else {
          throw Refusal(
            status: 431, message: "the request head is larger than \(limits.maxHeadBytes) bytes")
        }
        return end + 4
      }
      guard buffer.count <= limits.maxHeadBytes else {
        throw Refusal(
          status: 431, message: "the request head is larger than \(limits.maxHeadBytes) bytes")
      }
      return nil
    }
  }

  /// Parses the head in `buffer[0..<end]` (`end` from ``Scanner/headEnd(in:)``).
  static func parse(_ buffer: [UInt8], end: Int, limits: CollectorLimits) throws(Refusal)
    -> HTTPRequestHead
  {
    var lines: [ArraySlice<UInt8>] = []
    var start = 0
    while start < end - 2 {
      guard let lineEnd = Self.find(Self.crlf, in: buffer, from: start), lineEnd < end else {
        throw Refusal(status: 400, message: "a header line does not end with CRLF")
      }
      lines.append(buffer[start..<lineEnd])
      start = lineEnd + 2
    }
    guard let requestLine = lines.first else {
      throw Refusal(status: 400, message: "the request line is missing")
    }
    var head = try parseRequestLine(requestLine)
    guard lines.count - 1 <= limits.maxHeaderCount else {
      throw Refusal(status: 431, message: "more than \(limits.maxHeaderCount) header fields")
    }
    var contentLength: Int? = nil
    for line in lines.dropFirst() {
      let (name, value) = try parseField(line)
      switch name.lowercased() {
      case "content-length":
        guard let length = Self.parseContentLength(value) else {
          throw Refusal(status: 400, message: "Content-Length is not a number")
        }
        if let contentLength, contentLength != length {
          throw Refusal(status: 400, message: "conflicting Content-Length fields")
        }
        contentLength = length
      case "transfer-encoding":
        throw Refusal(
          status: 501, message: "Transfer-Encoding is not supported; send Content-Length")
      default:
        break
      }
      head.headers.append((name: name, value: value))
    }
    head.contentLength = contentLength ?? 0
    return head
  }

  private static func parseRequestLine(_ line: ArraySlice<UInt8>) throws(Refusal) -> HTTPRequestHead
  {
    let parts = line.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
    guard parts.count == 3, !parts[0].isEmpty, parts[0].allSatisfy(HTTPHeaders.isTokenByte) else {
      throw Refusal(status: 400, message: "the request line is not 'method target version'")
    }
    let target = parts[1]
    guard target.first == UInt8(ascii: "/"), target.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
      throw Refusal(status: 400, message: "the request target is not an absolute path")
    }
    let minorVersion: Int
    switch String(decoding: parts[2], as: UTF8.self) {
    case "HTTP/1.1": minorVersion = 1
    case "HTTP/1.0": minorVersion = 0
    default:
      guard parts[2].starts(with: Array("HTTP/".utf8)) else {
        throw Refusal(status: 400, message: "the request line has no HTTP version")
      }
      throw Refusal(status: 505, message: "only HTTP/1.0 and HTTP/1.1 are served")
    }
    let pathBytes = target.split(separator: UInt8(ascii: "?"), maxSplits: 1).first ?? target
    return HTTPRequestHead(
      method: String(decoding: parts[0], as: UTF8.self),
      path: String(decoding: pathBytes, as: UTF8.self), minorVersion: minorVersion,
      headers: [], contentLength: 0)
  }

  private static func parseField(_ line: ArraySlice<UInt8>) throws(Refusal) -> (String, String) {
    guard let first = line.first, first != UInt8(ascii: " "), first != UInt8(ascii: "\t") else {
      throw Refusal(status: 400, message: "obsolete line folding in the header fields")
    }
    guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else {
      throw Refusal(status: 400, message: "a header field has no colon")
    }
    let name = line[line.startIndex..<colon]
    guard !name.isEmpty, name.allSatisfy(HTTPHeaders.isTokenByte) else {
      throw Refusal(status: 400, message: "a header field name is not a token")
    }
    var value = line[(colon + 1)...]
    while let byte = value.first, byte == 0x20 || byte == 0x09 { value = value.dropFirst() }
    while let byte = value.last, byte == 0x20 || byte == 0x09 { value = value.dropLast() }
    guard value.allSatisfy({ $0 == 0x09 || ($0 >= 0x20 && $0 != 0x7F) }) else {
      throw Refusal(status: 400, message: "a header field value has a control character")
    }
    // RFC 9110 lets a value carry other bytes (obs-text) as opaque data; this collector's
    // clients send ASCII, and a value decoded with replacement characters could compare equal
    // to what it is not (a token among them), so a value that is not UTF-8 is refused.
    guard let text = String(validating: value, as: UTF8.self) else {
      throw Refusal(status: 400, message: "a header field value is not UTF-8")
    }
    return (String(decoding: name, as: UTF8.self), text)
  }

  /// A `Content-Length` value: decimal digits only, at most 18 of them.
  static func parseContentLength(_ value: String) -> Int? {
    guard !value.isEmpty, value.utf8.count <= 18,
      value.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
    else { return nil }
    return Int(value)
  }

  static let crlf: [UInt8] = [0x0D, 0x0A]
  static let crlfcrlf: [UInt8] = [0x0D, 0x0A, 0x0D, 0x0A]

  /// The index of the first occurrence of `pattern` in `buffer` at or after `from`.
  static func find(_ pattern: [UInt8], in buffer: [UInt8], from: Int) -> Int? {
    guard buffer.count >= pattern.count, from <= buffer.count - pattern.count else { return nil }
    var index = from
    while index <= buffer.count - pattern.count {
      if buffer[index] == pattern[0] {
        var matches = true
        for offset in 1..<pattern.count where buffer[index + offset] != pattern[offset] {
          matches = false
          break
        }
        if matches { return index }
      }
      index += 1
    }
    return nil
  }
}
