#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A socket call that failed, with its `errno`; or a host that is not an address.
package struct SocketError: Error, Sendable, Hashable {
  /// The call (`bind`, `connect`, …), or `getaddrinfo` for a name that did not resolve.
  package var call: String
  /// The error number (for `getaddrinfo`, its own error code).
  package var code: Int32
}

/// The socket calls the transport and the example collector make, with `EINTR` restarted and
/// errors as values; blocking, so only ever called on threads of their own.
package enum PosixSocket {
  /// A listening TCP socket bound to a numeric `host` and `port` (0: any free port); returns
  /// the descriptor and the port actually bound.
  ///
  /// - Throws: ``SocketError`` (call `inet_pton` for a host that is not a numeric address).
  package static func listen(host: String, port: UInt16, backlog: Int32 = 128)
    throws(SocketError) -> (descriptor: Int32, port: UInt16)
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
      throw SocketError(call: "inet_pton", code: EINVAL)
    }
    #if canImport(Glibc)
      let descriptor = socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    #else
      let descriptor = socket(family, SOCK_STREAM, 0)
    #endif
    guard descriptor >= 0 else { throw SocketError(call: "socket", code: errno) }
    var one: Int32 = 1
    setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
    let bound = withUnsafePointer(to: &storage) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
    }
    guard bound == 0 else {
      let code = errno
      close(descriptor)
      throw SocketError(call: "bind", code: code)
    }
    #if canImport(Glibc)
      let listening = Glibc.listen(descriptor, backlog)
    #else
      let listening = Darwin.listen(descriptor, backlog)
    #endif
    guard listening == 0 else {
      let code = errno
      close(descriptor)
      throw SocketError(call: "listen", code: code)
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
      throw SocketError(call: "getsockname", code: code)
    }
    let boundPort = withUnsafeBytes(of: &boundAddress) { raw -> UInt16 in
      if family == AF_INET {
        return UInt16(bigEndian: raw.load(as: sockaddr_in.self).sin_port)
      }
      return UInt16(bigEndian: raw.load(as: sockaddr_in6.self).sin6_port)
    }
    return (descriptor, boundPort)
  }

  /// A TCP connection to `host` (a name or a numeric address) and `port`, made within
  /// `timeout`; configured as ``configure(_:writeTimeout:)`` says.
  ///
  /// - Throws: ``SocketError``: `getaddrinfo` for a name that does not resolve, `connect` with
  ///   `ETIMEDOUT` when the time ran out, `ECONNREFUSED` when nothing listens.
  package static func connect(host: String, port: UInt16, timeout: Duration) throws(SocketError)
    -> Int32
  {
    var hints = addrinfo()
    hints.ai_family = AF_UNSPEC
    #if canImport(Glibc)
      hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
    #else
      hints.ai_socktype = SOCK_STREAM
    #endif
    hints.ai_flags = AI_NUMERICSERV
    var list: UnsafeMutablePointer<addrinfo>? = nil
    let resolved = getaddrinfo(host, String(port), &hints, &list)
    guard resolved == 0, let first = list else {
      throw SocketError(call: "getaddrinfo", code: resolved)
    }
    defer { freeaddrinfo(list) }
    let deadline = ContinuousClock.now + timeout
    var lastError = SocketError(call: "connect", code: ECONNREFUSED)
    var candidate: UnsafeMutablePointer<addrinfo>? = first
    while let entry = candidate {
      candidate = entry.pointee.ai_next
      let descriptor = socket(entry.pointee.ai_family, entry.pointee.ai_socktype, 0)
      guard descriptor >= 0 else {
        lastError = SocketError(call: "socket", code: errno)
        continue
      }
      _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
      let flags = fcntl(descriptor, F_GETFL, 0)
      _ = fcntl(descriptor, F_SETFL, flags | O_NONBLOCK)
      var code: Int32 = 0
      #if canImport(Glibc)
        let started = Glibc.connect(descriptor, entry.pointee.ai_addr, entry.pointee.ai_addrlen)
      #else
        let started = Darwin.connect(descriptor, entry.pointee.ai_addr, entry.pointee.ai_addrlen)
      #endif
      if started != 0 {
        code = errno
        if code == EINPROGRESS || code == EINTR {
          code = waitConnected(descriptor, until: deadline)
        }
      }
      guard code == 0 else {
        close(descriptor)
        lastError = SocketError(call: "connect", code: code)
        if code == ETIMEDOUT { break }
        continue
      }
      _ = fcntl(descriptor, F_SETFL, flags)
      configure(descriptor, writeTimeout: timeout)
      return descriptor
    }
    throw lastError
  }

  /// Waits for a non-blocking connect to finish; 0 or its error (`ETIMEDOUT` past the
  /// deadline).
  private static func waitConnected(_ descriptor: Int32, until deadline: ContinuousClock.Instant)
    -> Int32
  {
    while true {
      let left = ContinuousClock.now.duration(to: deadline)
      guard left > .zero else { return ETIMEDOUT }
      var entry = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
      let ready = poll(&entry, 1, milliseconds(left))
      if ready < 0 {
        if errno == EINTR { continue }
        return errno
      }
      if ready == 0 { continue }
      var error: Int32 = 0
      var length = socklen_t(MemoryLayout<Int32>.size)
      getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &error, &length)
      return error
    }
  }

  /// `duration` in whole milliseconds for `poll`, at least 1, at most a minute.
  package static func milliseconds(_ duration: Duration) -> Int32 {
    let (seconds, attoseconds) = duration.components
    let total = seconds * 1000 + attoseconds / 1_000_000_000_000_000
    return Int32(min(max(total, 1), 60_000))
  }

  /// Whether `host` is a numeric IPv4 or IPv6 address.
  package static func isNumericAddress(_ host: String) -> Bool {
    var v4 = in_addr()
    var v6 = in6_addr()
    return inet_pton(AF_INET, host, &v4) == 1 || inet_pton(AF_INET6, host, &v6) == 1
  }

  /// Whether `host` is a loopback address (`127.0.0.0/8`, `::1`).
  package static func isLoopback(_ host: String) -> Bool {
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
  package static func waitReadable(_ descriptor: Int32, milliseconds: Int32) -> Bool {
    var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
    while true {
      let ready = poll(&entry, 1, milliseconds)
      if ready < 0 && errno == EINTR { continue }
      return ready > 0
    }
  }

  /// Accepts one connection, or `nil` if none is waiting (or the accept failed).
  package static func accept(_ listener: Int32) -> Int32? {
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
  package static func configure(_ descriptor: Int32, writeTimeout: Duration) {
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
  package static func receive(_ descriptor: Int32, into buffer: inout [UInt8], count: Int) -> Int? {
    withUnsafeTemporaryAllocation(byteCount: max(count, 1), alignment: 1) { scratch in
      guard let base = scratch.baseAddress else { return nil }
      while true {
        let received = recv(descriptor, base, count, 0)
        if received < 0 && errno == EINTR { continue }
        guard received >= 0 else { return nil }
        buffer.append(contentsOf: UnsafeRawBufferPointer(start: base, count: received))
        return received
      }
    }
  }

  /// Writes all of `bytes`; `false` if the connection failed or the send timed out.
  @discardableResult
  package static func send(_ descriptor: Int32, _ bytes: [UInt8]) -> Bool {
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

  /// Writes all of `head` and then all of `body` (a request's header block and its body)
  /// without joining them in memory first: each `sendmsg` gathers what is left of both. `false`
  /// if the connection failed or the send timed out.
  @discardableResult
  package static func send(_ descriptor: Int32, _ head: [UInt8], _ body: [UInt8]) -> Bool {
    var offset = 0
    let total = head.count + body.count
    while offset < total {
      let sent = head.withUnsafeBytes { head in
        body.withUnsafeBytes { body in
          gather(descriptor, head: head, body: body, from: offset)
        }
      }
      if sent < 0 {
        if errno == EINTR { continue }
        return false
      }
      offset += sent
    }
    return true
  }

  /// One `sendmsg` of `head` and `body` from `offset` into the two (below their total).
  private static func gather(
    _ descriptor: Int32, head: UnsafeRawBufferPointer, body: UnsafeRawBufferPointer,
    from offset: Int
  ) -> Int {
    func vector(_ part: UnsafeRawBufferPointer, from start: Int) -> iovec {
      guard let base = part.baseAddress, start < part.count else { return iovec() }
      return iovec(
        iov_base: UnsafeMutableRawPointer(mutating: base + start), iov_len: part.count - start)
    }
    var parts =
      offset < head.count
      ? (vector(head, from: offset), vector(body, from: 0))
      : (vector(body, from: offset - head.count), iovec())
    let count = parts.1.iov_len > 0 ? 2 : 1
    return withUnsafeMutablePointer(to: &parts) { pair in
      pair.withMemoryRebound(to: iovec.self, capacity: 2) { vectors in
        var message = msghdr()
        message.msg_iov = vectors
        message.msg_iovlen = numericCast(count)
        #if canImport(Glibc)
          return sendmsg(descriptor, &message, Int32(MSG_NOSIGNAL))
        #else
          return sendmsg(descriptor, &message, 0)
        #endif
      }
    }
  }

  /// Stops both directions of a connection, waking a thread blocked on it.
  package static func shutdownBoth(_ descriptor: Int32) {
    _ = shutdown(descriptor, Int32(SHUT_RDWR))
  }

  /// Closes a descriptor.
  package static func close(_ descriptor: Int32) {
    #if canImport(Glibc)
      _ = Glibc.close(descriptor)
    #else
      _ = Darwin.close(descriptor)
    #endif
  }
}
