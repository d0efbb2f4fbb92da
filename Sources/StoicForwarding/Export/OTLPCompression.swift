/// Whether OTLP/HTTP bodies are compressed.
public enum OTLPCompression: Sendable, Hashable {
  /// Sent as encoded.
  case none
  /// gzip at a zlib level (0 … 9), with `Content-Encoding: gzip`.
  case gzip(level: Int32)

  /// gzip at ``Gzip/defaultLevel``.
  public static let gzip = OTLPCompression.gzip(level: Gzip.defaultLevel)
}
