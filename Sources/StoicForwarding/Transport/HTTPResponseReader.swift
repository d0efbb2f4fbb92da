/// Reads one HTTP/1.1 response from a connection, within a deadline and limits, for
/// ``SocketHTTPTransport``: interim `1xx` responses skipped, the body framed by
/// `Content-Length`, chunked coding or the end of the connection, and cut at a limit.
struct HTTPResponseReader {
  /// Why no whole response was read.
  enum ReadError: Error {
    /// The connection closed (or failed) before any byte of a response.
    case closedBeforeAnswer
    /// It closed partway through (the head or the body).
    case closedPartway
    /// The deadline passed.
    case timeout
    /// The bytes are not an HTTP/1.1 response.
    case malformed(String)

    var failure: TransportFailure {
      switch self {
      case .closedBeforeAnswer: .network("the connection closed before a response")
      case .closedPartway: .network("the connection closed partway through the response")
      case .timeout: .timeout
      case .malformed(let what): .network("the server's response was not HTTP: \(what)")
      }
    }
  }

  static let maximumHeadBytes = 64 << 10

  let descriptor: Int32
  let deadline: ContinuousClock.Instant
  let limit: Int
  private var buffer: [UInt8] = []
  private var answered = false

  init(descriptor: Int32, deadline: ContinuousClock.Instant, limit: Int) {
    self.descriptor = descriptor
    self.deadline = deadline
    self.limit = limit
  }

  /// The response, and whether the connection can carry another request.
  mutating func read() throws(ReadError) -> (TransportResponse, reusable: Bool) {
    while true {
      let (status, headers, minorVersion) = try readHead()
      if (100..<200).contains(status) { continue }  // interim: 100 Continue and the like
      var response = TransportResponse(status: status, headers: headers)
      let connectionTokens = (headers["Connection"] ?? "").lowercased()
      var reusable =
        minorVersion >= 1
        ? !connectionTokens.contains("close")
        : connectionTokens.contains("keep-alive")
      if status == 204 || status == 304 {
        return (response, reusable)
      }
      let complete: Bool
      if let coding = headers["Transfer-Encoding"] {
        guard coding.lowercased().trimmingCharacters() == "chunked" else {
          throw .malformed("an unknown transfer coding")
        }
        complete = try readChunked(into: &response.body)
      } else if let lengthText = headers["Content-Length"] {
        guard let length = Int(lengthText.trimmingCharacters()), length >= 0 else {
          throw .malformed("a bad Content-Length")
        }
        complete = try readLength(length, into: &response.body)
      } else {
        complete = try readToEnd(into: &response.body)
        reusable = false
      }
      response.isBodyComplete = complete
      return (response, reusable && complete)
    }
  }

  // MARK: Head

  private mutating func readHead() throws(ReadError) -> (Int, HTTPHeaders, Int) {
    var end: Int? = nil
    var searched = 0
    while true {
      end = Self.find(buffer, from: max(searched - 3, 0))
      if end != nil { break }
      searched = buffer.count
      guard buffer.count <= Self.maximumHeadBytes else {
        throw .malformed("a response head over 64 KiB")
      }
      try fill(partway: answered)
    }
    guard let end else { throw .malformed("no head") }
    let lines = String(decoding: buffer[0..<end], as: UTF8.self).split(
      separator: "\r\n", omittingEmptySubsequences: false)
    buffer.removeFirst(end + 4)
    guard let statusLine = lines.first else { throw .malformed("no status line") }
    let parts = statusLine.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
    guard parts.count >= 2, parts[0] == "HTTP/1.1" || parts[0] == "HTTP/1.0",
      parts[1].count == 3, let status = Int(parts[1]), (100...599).contains(status)
    else { throw .malformed("a bad status line") }
    var headers = HTTPHeaders()
    for line in lines.dropFirst() {
      guard let colon = line.firstIndex(of: ":") else { throw .malformed("a bad header line") }
      headers.add(
        String(line[..<colon]).trimmingCharacters(),
        String(line[line.index(after: colon)...]).trimmingCharacters())
    }
    return (status, headers, parts[0] == "HTTP/1.1" ? 1 : 0)
  }

  private static func find(_ buffer: [UInt8], from start: Int) -> Int? {
    guard buffer.count >= 4 else { return nil }
    var index = start
    while index + 3 < buffer.count {
      if buffer[index] == 0x0D, buffer[index + 1] == 0x0A, buffer[index + 2] == 0x0D,
        buffer[index + 3] == 0x0A
      {
        return index
      }
      index += 1
    }
    return nil
  }

  // MARK: Bodies (each returns whether the body is whole: false when cut at the limit)

  private mutating func readLength(_ length: Int, into body: inout [UInt8]) throws(ReadError)
    -> Bool
  {
    let wanted = min(length, limit)
    while buffer.count < wanted { try fill(partway: true) }
    body.append(contentsOf: buffer.prefix(wanted))
    buffer.removeFirst(wanted)
    return wanted == length
  }

  private mutating func readToEnd(into body: inout [UInt8]) throws(ReadError) -> Bool {
    while buffer.count <= limit {
      guard try fillOrEnd() else {
        body.append(contentsOf: buffer)
        return true
      }
    }
    body.append(contentsOf: buffer.prefix(limit))
    return false
  }

  private mutating func readChunked(into body: inout [UInt8]) throws(ReadError) -> Bool {
    while true {
      let sizeLine = try readLine()
      let sizeText = sizeLine.split(separator: ";", maxSplits: 1).first.map(String.init) ?? ""
      guard let size = Int(sizeText.trimmingCharacters(), radix: 16), size >= 0,
        sizeText.trimmingCharacters().count <= 15
      else { throw .malformed("a bad chunk size") }
      if size == 0 {
        while try !readLine().isEmpty {}  // trailers, up to the blank line
        return true
      }
      let room = limit - body.count
      if size > room {
        _ = try readLength(room, into: &body)
        return false
      }
      _ = try readLength(size, into: &body)
      guard try readLine().isEmpty else { throw .malformed("a chunk without its CRLF") }
    }
  }

  private mutating func readLine() throws(ReadError) -> String {
    while true {
      if let newline = buffer.firstIndex(of: 0x0A) {
        guard newline > 0, buffer[newline - 1] == 0x0D else { throw .malformed("a bare LF") }
        let line = String(decoding: buffer[0..<(newline - 1)], as: UTF8.self)
        buffer.removeFirst(newline + 1)
        return line
      }
      guard buffer.count < 4096 else { throw .malformed("a line over 4 KiB") }
      try fill(partway: true)
    }
  }

  // MARK: Bytes

  /// Reads more bytes; throws if the connection ends or the deadline passes.
  private mutating func fill(partway: Bool) throws(ReadError) {
    guard try fillOrEnd() else {
      throw partway || !buffer.isEmpty ? .closedPartway : .closedBeforeAnswer
    }
  }

  /// Reads more bytes; `false` at the end of the connection.
  private mutating func fillOrEnd() throws(ReadError) -> Bool {
    while true {
      let left = ContinuousClock.now.duration(to: deadline)
      guard left > .zero else { throw .timeout }
      guard PosixSocket.waitReadable(descriptor, milliseconds: PosixSocket.milliseconds(left))
      else { continue }
      guard let count = PosixSocket.receive(descriptor, into: &buffer, count: 64 << 10) else {
        throw answered || !buffer.isEmpty ? .closedPartway : .closedBeforeAnswer
      }
      if count == 0 { return false }
      answered = true
      return true
    }
  }
}

extension String {
  /// The string without leading and trailing spaces and tabs.
  func trimmingCharacters() -> String {
    String(Substring(self).trimmingSpaces)
  }
}
