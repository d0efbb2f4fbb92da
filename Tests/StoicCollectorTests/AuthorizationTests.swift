import Testing

@testable import StoicCollector

/// The bearer token check (RFC 9110: the scheme is case-insensitive) and header values that
/// are not UTF-8 (refused, 400, so none is taken for what it is not).
@Suite struct AuthorizationTests {
  static let token = "tok-3f9a"

  @Test(arguments: [
    "Bearer tok-3f9a", "bearer tok-3f9a", "BEARER tok-3f9a", "bEaReR tok-3f9a",
    "Bearer   tok-3f9a",
  ])
  func theSchemeInAnyCaseIsAccepted(_ header: String) {
    #expect(CollectorService.authorized(header, token: Self.token))
  }

  @Test(arguments: [
    "", "Bearer", "Bearer ", "Bearertok-3f9a", "Bearer\ttok-3f9a", "Basic tok-3f9a",
    "Bearer tok-3f9", "Bearer tok-3f9ax", "Bearer TOK-3F9A", "Bearer  tok-3f9a ",
    " Bearer tok-3f9a",
    "Bearar tok-3f9a", "Bearer tok-3f9a\u{FFFD}",
  ])
  func anythingElseIsRefused(_ header: String) {
    #expect(!CollectorService.authorized(header, token: Self.token))
  }

  @Test func aMissingHeaderIsRefused() {
    #expect(!CollectorService.authorized(nil, token: Self.token))
  }

  static func parse(_ bytes: [UInt8]) throws(HTTPRequestParser.Refusal) -> HTTPRequestHead? {
    let limits = CollectorLimits()
    var scanner = HTTPRequestParser.Scanner(limits: limits)
    guard let end = try scanner.headEnd(in: bytes) else { return nil }
    return try HTTPRequestParser.parse(bytes, end: end, limits: limits)
  }

  @Test func aHeaderValueThatIsNotUTF8IsRefused() throws {
    for value: [UInt8] in [[0xFF], Array("Bearer tok-3f9a".utf8) + [0xEF, 0xBF], [0xC0, 0xAF]] {
      let request =
        Array("GET /stats HTTP/1.1\r\nAuthorization: ".utf8) + value + Array("\r\n\r\n".utf8)
      #expect(throws: HTTPRequestParser.Refusal.self) { try Self.parse(request) }
      do throws(HTTPRequestParser.Refusal) {
        _ = try Self.parse(request)
      } catch {
        #expect(error.status == 400)
      }
    }
    let utf8 = Array("GET /stats HTTP/1.1\r\nX-Name: é ✓\r\n\r\n".utf8)
    #expect(try Self.parse(utf8)?.header("X-Name") == "é ✓")
  }
}
