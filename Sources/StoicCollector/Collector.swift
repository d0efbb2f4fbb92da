internal import StoicForwarding
public import StoicStore

/// Stoic's example OTLP/HTTP collector: receives logs, metrics and traces (`POST /v1/logs`,
/// `POST /v1/metrics`, `POST /v1/traces`, protobuf or JSON, gzip or not), stores them in its own journal, and
/// dedupes by `Idempotency-Key` durably, so a sender that retries after a crash, a dropped
/// connection or a restart of the collector ends with every record stored exactly once.
/// `GET /stats` answers the counts as JSON.
///
/// It speaks HTTP/1.1 on POSIX sockets (keep-alive, `Content-Length` bodies), one thread per
/// connection, never Swift's cooperative pool. It binds to 127.0.0.1 by default; bound beyond
/// loopback it refuses to start without a bearer token. Hostile input is answered, never a
/// crash: malformed HTTP 400 (414, 431, 505, 501 for the cases they name), an undecodable body
/// 400 with a message that never echoes it, a body over the limit 413, an unknown path 404, a
/// missing token 401, a slow client 408 and dropped. See ``CollectorLimits`` and, for tests,
/// ``CollectorFaults``.
///
/// ```swift
/// let collector = try Collector.start(CollectorOptions(dataDirectory: "/tmp/collector"))
/// print("listening on \(collector.address)")
/// // … send to collector.baseURL + "/v1/logs" …
/// let records = try collector.archive.logRecords()
/// collector.stop()
/// ```
public final class Collector: Sendable {
  /// The address it is bound to.
  public let host: String
  /// The port it listens on (the one picked, when started with port 0).
  public let port: UInt16
  /// What it has stored.
  public let archive: CollectorArchive
  private let server: HTTPServer
  private let stopped = SleepingLock(false)

  private init(host: String, port: UInt16, archive: CollectorArchive, server: HTTPServer) {
    self.host = host
    self.port = port
    self.archive = archive
    self.server = server
  }

  /// `host:port` (`[::1]:port` for IPv6).
  public var address: String {
    host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
  }

  /// `http://host:port`, the base of the endpoints.
  public var baseURL: String { "http://\(address)" }

  /// The counts behind `GET /stats`.
  public var stats: CollectorStats { archive.stats }

  /// Opens the journal, binds, and starts serving. Blocks while it opens the journal (a file
  /// read and a sync): call it from a thread of your own, or use the `async` variant.
  ///
  /// - Throws: ``CollectorError/tokenRequired(host:)`` when bound beyond loopback without a
  ///   token; ``CollectorError/invalidHost(_:)``; ``CollectorError/socket(call:errno:)`` when
  ///   the port is taken; ``CollectorError/store(_:)`` when the journal cannot be opened
  ///   (`StoreError/Code/locked`: another collector holds the directory).
  public static func start(_ options: CollectorOptions) throws(CollectorError) -> Collector {
    let limits = options.limits
    guard limits.maxConnections > 0, limits.maxRequestsPerConnection > 0,
      limits.maxBodyBytes >= 0, limits.maxDecodedBodyBytes >= 0,
      limits.maxDecodedBodyBytes <= 1 << 29
    else {
      throw .invalidOption("limits must be positive, and the decoded body at most 512 MiB")
    }
    guard PosixSocket.isNumericAddress(options.host) else { throw .invalidHost(options.host) }
    if !PosixSocket.isLoopback(options.host), options.token?.isEmpty ?? true {
      throw .tokenRequired(host: options.host)
    }
    let archive: CollectorArchive
    do {
      archive = try CollectorArchive.open(directory: options.dataDirectory)
    } catch {
      throw .store(error)
    }
    let listener: (descriptor: Int32, port: UInt16)
    do {
      listener = try PosixSocket.listen(host: options.host, port: options.port)
    } catch {
      try? archive.close()
      if error.call == "inet_pton" { throw .invalidHost(options.host) }
      throw .socket(call: error.call, errno: error.code)
    }
    let server = HTTPServer(
      listener: listener.descriptor,
      service: CollectorService(archive: archive, options: options))
    do {
      try server.start()
    } catch {
      PosixSocket.close(listener.descriptor)
      try? archive.close()
      throw error
    }
    return Collector(host: options.host, port: listener.port, archive: archive, server: server)
  }

  /// ``start(_:)`` on a thread of its own, so the calling task's thread never blocks.
  public static func start(_ options: CollectorOptions) async throws(CollectorError)
    -> Collector
  {
    let result = await withCheckedContinuation {
      (continuation: CheckedContinuation<Result<Collector, CollectorError>, Never>) in
      let started = PosixThread.detach {
        do throws(CollectorError) {
          continuation.resume(returning: .success(try start(options)))
        } catch {
          continuation.resume(returning: .failure(error))
        }
      }
      if !started {
        continuation.resume(returning: .failure(.invalidOption("could not start a thread")))
      }
    }
    return try result.get()
  }

  /// Stops: no new connections, requests in progress finish (connections still open after a
  /// few seconds are shut down), then the journal is closed (synced). Blocks; calling it again
  /// returns at once.
  ///
  /// - Throws: ``CollectorError/store(_:)`` if closing the journal failed.
  public func stop() throws(CollectorError) {
    let first = stopped.withLock { done -> Bool in
      defer { done = true }
      return !done
    }
    guard first else { return }
    server.stop()
    do {
      try archive.close()
    } catch {
      throw .store(error)
    }
  }

  /// ``stop()`` on a thread of its own.
  public func stop() async throws(CollectorError) {
    let result = await withCheckedContinuation {
      (continuation: CheckedContinuation<Result<Void, CollectorError>, Never>) in
      let started = PosixThread.detach { [self] in
        do throws(CollectorError) {
          try stop()
          continuation.resume(returning: .success(()))
        } catch {
          continuation.resume(returning: .failure(error))
        }
      }
      if !started {
        continuation.resume(returning: .failure(.invalidOption("could not start a thread")))
      }
    }
    try result.get()
  }
}

/// How a ``Collector`` runs.
public struct CollectorOptions: Sendable {
  /// The environment variable `stoic-collector` reads a bearer token from when no `--token`
  /// is given: `STOIC_COLLECTOR_TOKEN`. (The library reads no environment: pass ``token``.)
  public static let tokenEnvironmentVariable = "STOIC_COLLECTOR_TOKEN"

  /// Where the collector keeps its journal (created if missing).
  public var dataDirectory: String
  /// The numeric address to bind, `127.0.0.1` by default. Any address other than loopback
  /// (`127.0.0.0/8`, `::1`) requires ``token``.
  public var host: String
  /// The TCP port; 0 picks a free one (see ``Collector/port``).
  public var port: UInt16
  /// A bearer token: when set, every request must carry `Authorization: Bearer <token>` or is
  /// answered 401. Required when bound beyond loopback.
  public var token: String?
  /// Request size, time and connection limits.
  public var limits: CollectorLimits
  /// Injected faults, for tests.
  public var faults: CollectorFaults

  /// Creates options; all but the directory have defaults (loopback, an ephemeral port, no
  /// token, default limits, no faults).
  public init(
    dataDirectory: String, host: String = "127.0.0.1", port: UInt16 = 0, token: String? = nil,
    limits: CollectorLimits = CollectorLimits(), faults: CollectorFaults = CollectorFaults()
  ) {
    self.dataDirectory = dataDirectory
    self.host = host
    self.port = port
    self.token = token
    self.limits = limits
    self.faults = faults
  }
}

/// Why a collector could not start or stop.
public enum CollectorError: Error, Sendable, CustomStringConvertible {
  /// Bound beyond loopback without a bearer token.
  case tokenRequired(host: String)
  /// The host is not a numeric IPv4 or IPv6 address.
  case invalidHost(String)
  /// A socket call failed (`bind`: the port is taken, …).
  case socket(call: String, errno: Int32)
  /// The journal could not be opened or written.
  case store(StoreError)
  /// A limit or fault setting cannot work.
  case invalidOption(String)

  /// A sentence for a person.
  public var description: String {
    switch self {
    case .tokenRequired(let host):
      "bound to \(host), beyond loopback, the collector requires a bearer token "
        + "(--token or \(CollectorOptions.tokenEnvironmentVariable))"
    case .invalidHost(let host): "\(host) is not a numeric IPv4 or IPv6 address"
    case .socket(let call, let errno): "\(call) failed: \(StoreErrno(rawValue: errno))"
    case .store(let error): "the collector's journal: \(error)"
    case .invalidOption(let message): message
    }
  }
}
