#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The few socket calls the collector makes, with `EINTR` restarted and errors as values.
enum PosixSocket {
  /// A listening TCP socket bound to a numeric `host` and `port` (0: any free port); returns
  /// the descriptor and the port actually bound.
  static func listen(host: String, port: UInt16, backlog: Int32 = 128) throws(CollectorError)
    -> (descriptor: Int32, port: UInt16)
  {
    var storage = sockaddr_storage()
    let length: socklen_t
    let family: Int32
    var v4 = in_addr()
    var v6 = in6_addr()
    if inet_pton(AF_INET, host, &v4) == 1 {
      family = AF_INET
      withUnsafeMutableBytes(of: &storage) { raw in
        let address = raw.baseAddress!.assumingMemoryBound(to: sockaddr_in.self)
        address.pointee.sin_family = sa_family_t(AF_INET)
        address.pointee.sin_port = port.bigEndian
        address.pointee.sin_addr = v4
      }
      length = socklen_t(MemoryLayout<sockaddr_in>.size)
    } else if inet_pton(AF_INET6, host, &v6) == 1 {
      family = AF_INET6
      withUnsafeMutableBytes(of: &storage) { raw in
        let address = raw.baseAddress!.assumingMemoryBound(to: sockaddr_in6.self)
        address.pointee.sin6_family = sa_family_t(AF_INET6)
        address.pointee.sin6_port = port.bigEndian
        address.pointee.sin6_addr = v6
      }
      length = socklen_t(MemoryLayout<sockaddr_in6>.size)
    } else {
      throw .invalidHost(host)
    }
    #if canImport(Glibc)
      let descriptor = socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    #else
      let descriptor = socket(family, SOCK_STREAM, 0)
    #endif
    guard descriptor >= 0 else { throw .socket(call: "socket", errno: errno) }
    var one: Int32 = 1
    setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
    let bound = withUnsafePointer(to: &storage) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
    }
    guard bound == 0 else {
      let code = errno
      close(descriptor)
      throw .socket(call: "bind", errno: code)
    }
    #if canImport(Glibc)
      let listening = Glibc.listen(descriptor, backlog)
    #else
      let listening = Darwin.listen(descriptor, backlog)
    #endif
    guard listening == 0 else {
      let code = errno
      close(descriptor)
      throw .socket(call: "listen", errno: code)
    }
    var boundAddress = sockaddr_storage()
    var boundLength = socklen_t(MemoryLayout<sockaddr_storage>.size)
    let named = withUnsafeMutablePointer(to: &boundAddress) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        getsockname(descriptor, $0, &boundLength)
      }
    }
    guard named == 0 else {
      let code = errno
      close(descriptor)
      throw .socket(call: "getsockname", errno: code)
    }
    let boundPort = withUnsafeBytes(of: &boundAddress) { raw -> UInt16 in
      if family == AF_INET {
        return UInt16(bigEndian: raw.load(as: sockaddr_in.self).sin_port)
      }
      return UInt16(bigEndian: raw.load(as: sockaddr_in6.self).sin6_port)
    }
    return (descriptor, boundPort)
  }

  /// Whether `host` is a loopback address (`127.0.0.0/8`, `::1`).
  static func isLoopback(_ host: String) -> Bool {
    var v4 = in_addr()
    if inet_pton(AF_INET, host, &v4) == 1 {
      return UInt32(bigEndian: v4.s_addr) >> 24 == 127
    }
    var v6 = in6_addr()
    if inet_pton(AF_INET6, host, &v6) == 1 {
      return withUnsafeBytes(of: &v6) { raw in raw.prefix(15).allSatisfy { $0 == 0 } && raw[15] == 1
      }
    }
    return false
  }

  /// Waits up to `milliseconds` for `descriptor` to become readable; `true` if it did (or has
  /// an error or hang-up to report).
  static func waitReadable(_ descriptor: Int32, milliseconds: Int32) -> Bool {
    var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
    while true {
      let ready = poll(&entry, 1, milliseconds)
      if ready < 0 && errno == EINTR { continue }
      return ready > 0
    }
  }

  /// Accepts one connection, or `nil` if none is waiting (or the accept failed).
  static func accept(_ listener: Int32) -> Int32? {
    while true {
      #if canImport(Glibc)
        let connection = Glibc.accept(listener, nil, nil)
      #else
        let connection = Darwin.accept(listener, nil, nil)
      #endif
      if connection >= 0 {
        // Not inherited by a process the host app may spawn.
        _ = fcntl(connection, F_SETFD, FD_CLOEXEC)
        return connection
      }
      if errno == EINTR { continue }
      return nil
    }
  }

  /// Sets the options every served connection gets: no Nagle delay (responses are small and
  /// answer a request), no SIGPIPE, a send timeout.
  static func configure(_ descriptor: Int32, writeTimeout: Duration) {
    var one: Int32 = 1
    setsockopt(
      descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    #if canImport(Darwin)
      setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
    #endif
    let (seconds, attoseconds) = writeTimeout.components
    var timeout = timeval(
      tv_sec: .init(max(seconds, 0)), tv_usec: .init(max(attoseconds / 1_000_000_000_000, 0)))
    if seconds == 0 && attoseconds == 0 { timeout.tv_usec = 1000 }
    setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
  }

  /// Reads what is available (up to `count` bytes) into `buffer`'s end; the number read, 0 at
  /// the end of the stream, `nil` on an error.
  static func receive(_ descriptor: Int32, into buffer: inout [UInt8], count: Int) -> Int? {
    let start = buffer.count
    buffer.append(contentsOf: repeatElement(0, count: count))
    var received = 0
    while true {
      received = buffer.withUnsafeMutableBytes { raw in
        guard let base = raw.baseAddress else { return -1 }
        return recv(descriptor, base + start, count, 0)
      }
      if received < 0 && errno == EINTR { continue }
      break
    }
    buffer.removeLast(count - max(received, 0))
    return received < 0 ? nil : received
  }

  /// Writes all of `bytes`; `false` if the connection failed or the send timed out.
  @discardableResult
  static func send(_ descriptor: Int32, _ bytes: [UInt8]) -> Bool {
    var offset = 0
    while offset < bytes.count {
      let sent = bytes.withUnsafeBytes { raw -> Int in
        guard let base = raw.baseAddress else { return -1 }
        #if canImport(Glibc)
          return Glibc.send(descriptor, base + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
        #else
          return Darwin.send(descriptor, base + offset, bytes.count - offset, 0)
        #endif
      }
      if sent < 0 {
        if errno == EINTR { continue }
        return false
      }
      offset += sent
    }
    return true
  }

  /// Stops both directions of a connection, waking a thread blocked on it.
  static func shutdownBoth(_ descriptor: Int32) {
    _ = shutdown(descriptor, Int32(SHUT_RDWR))
  }

  /// Closes a descriptor.
  static func close(_ descriptor: Int32) {
    #if canImport(Glibc)
      _ = Glibc.close(descriptor)
    #else
      _ = Darwin.close(descriptor)
    #endif
  }
}
