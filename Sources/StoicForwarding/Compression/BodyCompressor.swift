/// What compresses a request body for an exporter: the `Content-Encoding` it names and the
/// compression, with state reused from one body to the next. An exporter keeps a pool of them
/// and gives each to one encoding at a time: never used from two threads at once.
///
/// A compression is a conformer: ``GzipCompressor`` (`gzip`) and ``ZstdBodyCompressor``
/// (`zstd`); `OTLPCompression.makeCompressor()` maps a configuration's compression to its
/// conformer in one place.
protocol BodyCompressor: AnyObject {
  /// The `Content-Encoding` of what ``compress(_:appendingTo:)`` writes.
  var contentEncoding: String { get }

  /// Appends `input`, compressed, to `output`.
  ///
  /// - Throws: ``ForwardingError/Code/tooLarge`` for an input the compression cannot take;
  ///   ``ForwardingError/Code/compression`` if the compression fails.
  func compress(_ input: [UInt8], appendingTo output: inout [UInt8]) throws(ForwardingError)
}

extension OTLPCompression {
  /// The compressor of this compression, or `nil` for ``OTLPCompression/none``.
  ///
  /// - Throws: ``ForwardingError/Code/invalidArgument`` for a gzip level outside 0…9;
  ///   ``ForwardingError/Code/compression`` if its state cannot be made.
  func makeCompressor() throws(ForwardingError) -> (any BodyCompressor)? {
    switch self {
    case .none: nil
    case .gzip(let level): try GzipCompressor(level: level)
    case .zstd(let level): ZstdBodyCompressor(level: level)
    }
  }
}

extension GzipCompressor: BodyCompressor {
  /// `gzip`.
  var contentEncoding: String { "gzip" }
}
