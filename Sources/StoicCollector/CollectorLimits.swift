/// How much the collector accepts from one client, so that no client can make it use
/// unbounded memory, threads or time.
public struct CollectorLimits: Sendable, Hashable {
  /// The longest request line (method, path, version), in bytes; longer is answered 414.
  public var maxRequestLineBytes: Int
  /// The largest request head (request line and header fields), in bytes; larger is 431.
  public var maxHeadBytes: Int
  /// The most header fields in one request; more is 431.
  public var maxHeaderCount: Int
  /// The largest body as sent (`Content-Length`), in bytes; larger is 413 without reading it.
  public var maxBodyBytes: Int
  /// The largest body after gzip decompression, in bytes; larger is 413 (OTLP recommends
  /// 64 MiB).
  public var maxDecodedBodyBytes: Int
  /// How long a kept-alive connection may wait for its next request before it is closed.
  public var idleTimeout: Duration
  /// How long a request may take to arrive, from its first byte to its last; a slower client
  /// is answered 408 and dropped.
  public var readTimeout: Duration
  /// How long writing a response may block before the connection is dropped.
  public var writeTimeout: Duration
  /// How many requests one connection may make; the last is answered with `Connection: close`.
  public var maxRequestsPerConnection: Int
  /// How many connections are served at once (one thread each); more are answered 503.
  public var maxConnections: Int

  /// Creates limits; every parameter has a default suited to a collector on loopback.
  public init(
    maxRequestLineBytes: Int = 8 << 10, maxHeadBytes: Int = 32 << 10, maxHeaderCount: Int = 100,
    maxBodyBytes: Int = 16 << 20, maxDecodedBodyBytes: Int = 64 << 20,
    idleTimeout: Duration = .seconds(30), readTimeout: Duration = .seconds(30),
    writeTimeout: Duration = .seconds(30), maxRequestsPerConnection: Int = 10_000,
    maxConnections: Int = 64
  ) {
    self.maxRequestLineBytes = maxRequestLineBytes
    self.maxHeadBytes = maxHeadBytes
    self.maxHeaderCount = maxHeaderCount
    self.maxBodyBytes = maxBodyBytes
    self.maxDecodedBodyBytes = maxDecodedBodyBytes
    self.idleTimeout = idleTimeout
    self.readTimeout = readTimeout
    self.writeTimeout = writeTimeout
    self.maxRequestsPerConnection = maxRequestsPerConnection
    self.maxConnections = maxConnections
  }
}
