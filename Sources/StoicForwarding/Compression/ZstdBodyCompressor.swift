internal import StoicStore

/// A zstd compressor of request bodies (`Content-Encoding: zstd`, which the OpenTelemetry
/// Collector's OTLP/HTTP receiver reads), keeping its context from one body to the next. Each
/// body is one zstd frame that records its content size. Not for use from two threads at once.
///
/// At level 1, zstd compresses OTLP log records several times faster than gzip does at its
/// level 1, to a smaller body (BENCHMARKS.md, "Bodies in zstd").
final class ZstdBodyCompressor: BodyCompressor {
  private let compressor = Zstd.Compressor()
  /// The level it compresses at.
  let level: Int32

  /// Creates a compressor at `level`, 1 (fastest) … 19 (checked with the configuration, by
  /// ``OTLPCompression/checkLevel()``).
  init(level: Int32) {
    self.level = level
  }

  /// `zstd`.
  var contentEncoding: String { "zstd" }

  func compress(_ input: [UInt8], appendingTo output: inout [UInt8]) throws(ForwardingError) {
    let compressed: [UInt8]
    do {
      compressed = try input.withUnsafeBytes { try compressor.compress($0, level: level) }
    } catch {
      throw ForwardingError(.compression, "zstd could not compress \(input.count) bytes: \(error)")
    }
    if output.isEmpty {
      output = compressed
    } else {
      output.append(contentsOf: compressed)
    }
  }
}
