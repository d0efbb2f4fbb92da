internal import StoicForwarding
@_spi(Formats) internal import StoicStore

/// How a stored batch's body is compressed: a protobuf request is kept in the
/// `Content-Encoding` it came in, so the collector writes and syncs the bytes it received,
/// not several times as many.
public enum CollectorBodyCompression: UInt8, Sendable, Hashable, CaseIterable {
  /// Not compressed (an identity request, or a JSON request re-encoded as protobuf).
  case none = 0
  /// gzip (`Content-Encoding: gzip`).
  case gzip = 1
  /// zstd (`Content-Encoding: zstd`).
  case zstd = 2

  /// The `Content-Encoding` it came in (`identity` for ``none``).
  public var contentEncoding: String {
    switch self {
    case .none: "identity"
    case .gzip: "gzip"
    case .zstd: "zstd"
    }
  }

  /// `body` decompressed, or `nil` when it does not decompress (damage the journal's CRC
  /// missed) or expands past `limit` bytes.
  func decompress(_ body: [UInt8], limit: Int) -> [UInt8]? {
    switch self {
    case .none: body
    case .gzip: try? Gzip.decompress(body, maxOutputSize: limit)
    case .zstd: try? Zstd.decompress(body, maxOutputSize: limit)
    }
  }
}
