internal import StoicForwarding

/// Serves one client connection on its own thread: reads requests (keep-alive, within the
/// limits and deadlines), asks the ``CollectorService`` what to answer, writes the answers.
///
/// Deadlines: a kept-alive connection waits at most ``CollectorLimits/idleTimeout`` for its
/// next request; a request must arrive whole within ``CollectorLimits/readTimeout`` of its
/// first byte (a slower client gets 408 and is dropped). While waiting, the connection checks
/// every 100 ms whether the server is stopping.
struct HTTPConnection {
  let descriptor: Int32
  let service: CollectorService
  let isStopping: @Sendable () -> Bool

  private var limits: CollectorLimits { service.options.limits }

  /// Serves requests until the client closes, a limit or deadline is reached, or the server
  /// stops.
  func run() {
    var buffer: [UInt8] = []
    var served = 0
    while served < limits.maxRequestsPerConnection {
      // Wait for the first byte of the next request.
      if buffer.isEmpty {
        guard waitForData(deadline: ContinuousClock.now + limits.idleTimeout, idle: true),
          receive(into: &buffer)
        else { return }
      }
      let deadline = ContinuousClock.now + limits.readTimeout
      var scanner = HTTPRequestParser.Scanner(limits: limits)
      var headEnd: Int? = nil
      do {
        while true {
          headEnd = try scanner.headEnd(in: buffer)
          if headEnd != nil { break }
          guard waitForData(deadline: deadline, idle: false) else {
            if ContinuousClock.now >= deadline {
              refuse(.text(408, "the request did not arrive in time"))
            }
            return
          }
          guard receive(into: &buffer) else { return }
        }
      } catch {
        refuse(.text(error.status, error.message))
        return
      }
      guard let end = headEnd else { return }
      let head: HTTPRequestHead
      do {
        head = try HTTPRequestParser.parse(buffer, end: end, limits: limits)
      } catch {
        refuse(.text(error.status, error.message))
        return
      }
      buffer.removeFirst(end)
      served += 1
      let last = !head.keepAlive || served >= limits.maxRequestsPerConnection

      switch service.decide(head) {
      case .answer(let response, let drain):
        // The body is read and dropped, so the connection can carry the next request; but not
        // when the client waits for a 100 Continue it will not get (it sends no body then). A
        // body too slow to arrive gets this answer, not a 408 as well: the request was refused
        // (and counted) once.
        let waitsForContinue = head.expectsContinue && buffer.count < head.contentLength
        guard drain, !waitsForContinue,
          readBody(
            head, into: &buffer, deadline: deadline, sendContinue: false, refuseLate: false)
            != nil
        else {
          send(response, close: true)
          return
        }
        guard send(response, close: last), !last else { return }
      case .dropMidRequest:
        _ = readBody(
          head, into: &buffer, deadline: deadline, sendContinue: true, upTo: head.contentLength / 2)
        return
      case .readBody(let route):
        guard let body = readBody(head, into: &buffer, deadline: deadline, sendContinue: true)
        else { return }
        let outcome = service.process(route, head: head, body: body)
        if outcome.dropMidResponse {
          let bytes = outcome.response.serialized(close: last)
          PosixSocket.send(descriptor, Array(bytes.prefix(max(bytes.count / 2, 1))))
          return
        }
        guard send(outcome.response, close: last), !last else { return }
      }
    }
  }

  /// Reads the body (`Content-Length` bytes, or `upTo` of them) following the head; `nil` if
  /// the client closed or the deadline passed first (a 408 is sent and counted for the latter
  /// when `refuseLate`; a request already refused is not refused twice).
  private func readBody(
    _ head: HTTPRequestHead, into buffer: inout [UInt8], deadline: ContinuousClock.Instant,
    sendContinue: Bool, upTo: Int? = nil, refuseLate: Bool = true
  ) -> [UInt8]? {
    let wanted = min(upTo ?? head.contentLength, head.contentLength)
    if sendContinue, head.expectsContinue, buffer.count < head.contentLength {
      PosixSocket.send(descriptor, Array("HTTP/1.1 100 Continue\r\n\r\n".utf8))
    }
    while buffer.count < wanted {
      guard waitForData(deadline: deadline, idle: false) else {
        if refuseLate, ContinuousClock.now >= deadline {
          refuse(.text(408, "the request did not arrive in time"))
        }
        return nil
      }
      guard receive(into: &buffer, atMost: wanted - buffer.count) else { return nil }
    }
    let body = Array(buffer.prefix(wanted))
    buffer.removeFirst(wanted)
    return body
  }

  /// Waits until data arrives (`true`), the deadline passes, or the server stops while the
  /// connection is idle.
  private func waitForData(deadline: ContinuousClock.Instant, idle: Bool) -> Bool {
    while true {
      let left = ContinuousClock.now.duration(to: deadline)
      guard left > .zero else { return false }
      if idle && isStopping() { return false }
      let slice = min(left, .milliseconds(100))
      let milliseconds = Int32(
        slice.components.seconds * 1000 + slice.components.attoseconds / 1_000_000_000_000_000)
      if PosixSocket.waitReadable(descriptor, milliseconds: max(milliseconds, 1)) { return true }
    }
  }

  /// Reads what is available; `false` when the client closed or the read failed.
  private func receive(into buffer: inout [UInt8], atMost: Int = 64 << 10) -> Bool {
    guard
      let count = PosixSocket.receive(
        descriptor, into: &buffer, count: min(max(atMost, 1), 64 << 10))
    else { return false }
    return count > 0
  }

  /// Sends a refusal the service did not decide on (a head that does not parse, a request too
  /// slow to arrive), counted, and closes.
  private func refuse(_ response: HTTPResponse) {
    service.refused(response.status)
    send(response, close: true)
  }

  @discardableResult
  private func send(_ response: HTTPResponse, close: Bool) -> Bool {
    PosixSocket.send(descriptor, response.serialized(close: close))
  }
}
