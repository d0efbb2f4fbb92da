import Foundation
import StoicForwarding
import Testing

#if canImport(Glibc)
  import Glibc
#else
  import Darwin
#endif

/// The socket transport sends a request's header block and its body from their own buffers
/// (one gathered `sendmsg` at a time, never joined in memory): the peer must read the two as
/// one stream, in order, however the kernel splits the writes.
@Suite("PosixSocket: header block and body sent from two buffers")
struct PosixSocketSendTests {
  @Test(
    "the peer reads head then body, byte for byte, through partial writes",
    arguments: [(0, 0), (37, 0), (0, 5), (300, 4 << 20), (1, 1)])
  func headThenBody(sizes: (head: Int, body: Int)) throws {
    var pair: [Int32] = [0, 0]
    #if canImport(Glibc)
      let kind = Int32(SOCK_STREAM.rawValue)
    #else
      let kind = SOCK_STREAM
    #endif
    try #require(socketpair(AF_UNIX, kind, 0, &pair) == 0)
    defer {
      PosixSocket.close(pair[0])
      PosixSocket.close(pair[1])
    }
    // A small send buffer, so a large body takes many partial writes.
    var small: Int32 = 4096
    setsockopt(pair[0], SOL_SOCKET, SO_SNDBUF, &small, socklen_t(MemoryLayout<Int32>.size))
    let head = (0..<sizes.head).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 1) }
    let body = (0..<sizes.body).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ 5) }
    let total = head.count + body.count
    let read = ReadAll(descriptor: pair[1], count: total)
    let thread = Thread { read.run() }
    thread.start()
    #expect(PosixSocket.send(pair[0], head, body))
    read.done.wait()
    #expect(read.bytes == head + body)
  }
}

/// Reads `count` bytes from a descriptor on a thread of its own.
private final class ReadAll: @unchecked Sendable {
  let descriptor: Int32
  let count: Int
  var bytes: [UInt8] = []
  let done = DispatchSemaphore(value: 0)

  init(descriptor: Int32, count: Int) {
    self.descriptor = descriptor
    self.count = count
  }

  func run() {
    var chunk = [UInt8](repeating: 0, count: 64 << 10)
    while bytes.count < count {
      let got = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if got < 0, errno == EINTR { continue }
      if got <= 0 { break }
      bytes.append(contentsOf: chunk[0..<got])
    }
    done.signal()
  }
}
