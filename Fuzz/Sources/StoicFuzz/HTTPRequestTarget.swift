@testable import StoicCollector

/// The collector's HTTP/1.x request head parser (`HTTPRequestParser`), with small limits so
/// that the fuzzer reaches them.
///
/// The input is a byte saying how the bytes arrive (in pieces of 1 to 16 bytes, or all at
/// once), then the bytes. What must hold: the scanner finds the same end of head (or refuses
/// with the same status) however the bytes are split; a refusal's status is one the parser
/// documents and its message holds none of the request's bytes beyond what it names; a head it
/// accepts, written again as a client would send it, parses to the same head.
enum HTTPRequestTarget {
  static let limits = CollectorLimits(
    maxRequestLineBytes: 256, maxHeadBytes: 1024, maxHeaderCount: 8)

  /// The limits a head written again is parsed under.
  static let relaxed = CollectorLimits(
    maxRequestLineBytes: 256, maxHeadBytes: 4 * 2048, maxHeaderCount: 8)

  static let statuses: Set<Int> = [400, 414, 431, 501, 505]

  static let target = FuzzTarget(
    name: "collector-http",
    summary: "collector HTTP request heads: split-independent scan, parse, write, parse the same",
    maxLength: 2048,
    run: { bytes in
      var input = FuzzInput(bytes)
      let piece = Int(input.byte() % 17)
      let request = input.rest()
      let whole = scan(request, piece: 0)
      let split = scan(request, piece: piece)
      FuzzCheck.require(
        whole == split,
        "scanning in pieces of \(piece) gives \(String(describing: split)), at once \(String(describing: whole))"
      )
      guard case .end(let end)? = whole else {
        if case .refused(let refusal)? = whole { checkRefusal(refusal) }
        return
      }
      let head: HTTPRequestHead
      do throws(HTTPRequestParser.Refusal) {
        head = try HTTPRequestParser.parse(request, end: end, limits: limits)
      } catch {
        checkRefusal(error)
        return
      }
      // A value's bytes that are not UTF-8 are read as U+FFFD, three bytes when written again:
      // the written head is parsed under a larger head limit.
      let written = write(head)
      guard case .end(let writtenEnd)? = scan(written, piece: 0, limits: relaxed),
        let again = try? HTTPRequestParser.parse(written, end: writtenEnd, limits: relaxed)
      else {
        FuzzCheck.fail("an accepted head, written again, is refused")
      }
      FuzzCheck.require(
        Summary(again) == Summary(head), "an accepted head, written again, parses differently")
    },
    seeds: {
      [
        "POST /v1/logs HTTP/1.1\r\nHost: 127.0.0.1:4318\r\nContent-Type: application/x-protobuf\r\nContent-Length: 42\r\nIdempotency-Key: a1\r\n\r\n",
        "GET /stats?x=1 HTTP/1.0\r\nConnection: keep-alive\r\n\r\n",
        "POST /v1/metrics HTTP/1.1\r\nContent-Encoding: gzip\r\nContent-Length: 10\r\nContent-Length: 10\r\nExpect: 100-continue\r\n\r\nbody",
        "POST /v1/logs HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n",
        "GET / HTTP/2.0\r\n\r\n",
        "GET / HTTP/1.1\r\nBad Name: x\r\n folded\r\n\r\n",
      ].map { [0] + Array($0.utf8) } + [
        [3] + Array("POST /v1/logs HTTP/1.1\r\nContent-Length: 7\r\n\r\n".utf8)
      ]
    })

  /// What the scanner said: where the head ends, a refusal, or nothing yet (`nil`).
  enum Scan: Equatable {
    case end(Int)
    case refused(HTTPRequestParser.Refusal)
  }

  /// Scans `bytes` as they would arrive in pieces of `piece` bytes (all at once for 0).
  static func scan(_ bytes: [UInt8], piece: Int, limits: CollectorLimits = limits) -> Scan? {
    var scanner = HTTPRequestParser.Scanner(limits: limits)
    var buffer: [UInt8] = []
    var offset = 0
    repeat {
      let next = piece == 0 ? bytes.count : min(bytes.count, offset + piece)
      buffer += bytes[offset..<next]
      offset = next
      do throws(HTTPRequestParser.Refusal) {
        if let end = try scanner.headEnd(in: buffer) { return .end(end) }
      } catch {
        return .refused(error)
      }
    } while offset < bytes.count
    return nil
  }

  static func checkRefusal(_ refusal: HTTPRequestParser.Refusal) {
    FuzzCheck.require(statuses.contains(refusal.status), "a refusal with status \(refusal.status)")
    FuzzCheck.require(
      refusal.message.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F },
      "a refusal's message is not plain text")
  }

  /// A head as a client writes it: the request line, each field as `name: value`.
  static func write(_ head: HTTPRequestHead) -> [UInt8] {
    var text = "\(head.method) \(head.path) HTTP/1.\(head.minorVersion)\r\n"
    for (name, value) in head.headers { text += "\(name): \(value)\r\n" }
    return Array((text + "\r\n").utf8)
  }

  /// The parts of a head that mean something.
  struct Summary: Equatable {
    var method: String
    var path: String
    var minorVersion: Int
    var headers: [String]
    var contentLength: Int
    var keepAlive: Bool
    var expectsContinue: Bool

    init(_ head: HTTPRequestHead) {
      method = head.method
      path = head.path
      minorVersion = head.minorVersion
      headers = head.headers.map { "\($0.name): \($0.value)" }
      contentLength = head.contentLength
      keepAlive = head.keepAlive
      expectsContinue = head.expectsContinue
    }
  }
}
