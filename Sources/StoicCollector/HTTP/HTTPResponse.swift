internal import StoicForwarding

/// One HTTP/1.1 response, serialized in one piece (head and body in a single write).
struct HTTPResponse: Sendable {
  var status: Int
  var headers: [(name: String, value: String)]
  var body: [UInt8]

  init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
    self.status = status
    self.headers = headers
    self.body = body
  }

  /// A plain-text response with `message` (for answers outside OTLP: a malformed request, an
  /// unknown path).
  static func text(_ status: Int, _ message: String) -> HTTPResponse {
    HTTPResponse(
      status: status, headers: [("Content-Type", "text/plain; charset=utf-8")],
      body: Array((message + "\n").utf8))
  }

  /// An OTLP failure: a `google.rpc.Status` with `message`, in the request's encoding (OTLP
  /// requires the Status message as the body of every 4xx and 5xx).
  static func otlpFailure(_ status: Int, _ message: String, encoding: OTLPEncoding)
    -> HTTPResponse
  {
    let code: Int32 =
      switch status {
      case 400, 413, 415, 422: 3  // INVALID_ARGUMENT
      case 401: 16  // UNAUTHENTICATED
      case 429: 8  // RESOURCE_EXHAUSTED
      default: 14  // UNAVAILABLE
      }
    return HTTPResponse(
      status: status, headers: [("Content-Type", encoding.contentType)],
      body: OTLP.Status(code: code, message: message).encoded(as: encoding))
  }

  /// The bytes on the wire, with `Content-Length` and, when `close`, `Connection: close`.
  func serialized(close: Bool) -> [UInt8] {
    var head = "HTTP/1.1 \(status) \(Self.reason(status))\r\n"
    for (name, value) in headers { head += "\(name): \(value)\r\n" }
    head += "Content-Length: \(body.count)\r\n"
    if close { head += "Connection: close\r\n" }
    head += "\r\n"
    return Array(head.utf8) + body
  }

  static func reason(_ status: Int) -> String {
    switch status {
    case 100: "Continue"
    case 200: "OK"
    case 400: "Bad Request"
    case 401: "Unauthorized"
    case 404: "Not Found"
    case 405: "Method Not Allowed"
    case 408: "Request Timeout"
    case 409: "Conflict"
    case 413: "Content Too Large"
    case 414: "URI Too Long"
    case 415: "Unsupported Media Type"
    case 422: "Unprocessable Content"
    case 425: "Too Early"
    case 429: "Too Many Requests"
    case 431: "Request Header Fields Too Large"
    case 500: "Internal Server Error"
    case 501: "Not Implemented"
    case 502: "Bad Gateway"
    case 503: "Service Unavailable"
    case 504: "Gateway Timeout"
    case 505: "HTTP Version Not Supported"
    default: "Status \(status)"
    }
  }
}
