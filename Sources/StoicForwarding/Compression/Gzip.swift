internal import CStoicDeflate
internal import CStoicZlib

/// gzip (RFC 1952): the `Content-Encoding: gzip` of OTLP/HTTP bodies, compressed through the
/// system's libdeflate and decompressed through its zlib.
///
/// Compression appends to a caller's buffer with a ``GzipCompressor`` that keeps its state
/// between bodies. Decompression takes untrusted bytes and an output limit: it stops and throws
/// ``ForwardingError/Code/tooLarge`` as soon as the output would pass the limit, so a small
/// "zip bomb" never becomes a large allocation; a damaged or truncated stream throws
/// ``ForwardingError/Code/compression``. Concatenated gzip members (RFC 1952 allows them) are
/// read one after the other.
public enum Gzip {
  /// The level bodies are compressed at unless configured: 1, the fastest. On batches of
  /// OTLP log records (protobuf, 60-byte messages) its output was about a fifth larger than
  /// level 6's, at more than twice the speed; compression is the largest cost of a request.
  public static let defaultLevel: Int32 = 1

  /// `bytes` compressed into one gzip member.
  ///
  /// - Parameters:
  ///   - bytes: The bytes to compress.
  ///   - level: The level, 0 (store) … 9 (smallest), on zlib's scale.
  /// - Throws: ``ForwardingError/Code/invalidArgument`` for a level outside 0…9;
  ///   ``ForwardingError/Code/compression`` if the compression fails.
  public static func compress(_ bytes: [UInt8], level: Int32 = defaultLevel)
    throws(ForwardingError) -> [UInt8]
  {
    let compressor = try GzipCompressor(level: level)
    var output: [UInt8] = []
    try compressor.compress(bytes, appendingTo: &output)
    return output
  }

  /// Decompresses a gzip stream, refusing to produce more than `maxOutputSize` bytes.
  ///
  /// - Throws: ``ForwardingError/Code/tooLarge`` past the limit;
  ///   ``ForwardingError/Code/compression`` for a stream that is not gzip, is damaged or ends
  ///   early.
  public static func decompress(_ bytes: [UInt8], maxOutputSize: Int) throws(ForwardingError)
    -> [UInt8]
  {
    guard maxOutputSize >= 0 else {
      throw ForwardingError(.invalidArgument, "maxOutputSize must not be negative")
    }
    guard !bytes.isEmpty else {
      throw ForwardingError(.compression, "an empty gzip stream")
    }
    let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
    stream.initialize(to: z_stream())
    defer {
      inflateEnd(stream)
      stream.deinitialize(count: 1)
      stream.deallocate()
    }
    guard stoic_inflate_init_gzip(stream) == Z_OK else {
      throw ForwardingError(.compression, "zlib could not start a decompression")
    }
    var output: [UInt8] = []
    // OTLP bodies expand about 5× (protobuf) to 15× (JSON): room for that, so the output
    // grows once at most (and never past the limit, nor 16 MiB before it is needed).
    output.reserveCapacity(min(max(bytes.count * 16, 4096), maxOutputSize, 16 << 20))
    var chunk = [UInt8](repeating: 0, count: 64 << 10)
    var consumed = 0
    while true {
      var result: Int32 = Z_STREAM_ERROR
      var produced = 0
      let remaining = bytes.count - consumed
      bytes.withUnsafeBufferPointer { input in
        chunk.withUnsafeMutableBufferPointer { out in
          // Both buffers are non-empty (checked above; the chunk is 64 KiB).
          guard let source = input.baseAddress else { return }
          stream.pointee.next_in = UnsafeMutablePointer(mutating: source + consumed)
          stream.pointee.avail_in = UInt32(clamping: remaining)
          stream.pointee.next_out = out.baseAddress
          stream.pointee.avail_out = UInt32(out.count)
          let before = stream.pointee.avail_in
          result = inflate(stream, Z_NO_FLUSH)
          consumed += Int(before - stream.pointee.avail_in)
          produced = out.count - Int(stream.pointee.avail_out)
        }
      }
      guard output.count + produced <= maxOutputSize else {
        throw ForwardingError(
          .tooLarge, "a gzip body expands past the limit of \(maxOutputSize) bytes")
      }
      output.append(contentsOf: chunk[0..<produced])
      switch result {
      case Z_STREAM_END:
        guard consumed < bytes.count else { return output }
        // Another member follows.
        guard inflateReset(stream) == Z_OK else {
          throw ForwardingError(.compression, "zlib could not restart for the next member")
        }
      case Z_OK:
        continue
      case Z_BUF_ERROR where produced > 0:
        continue
      case Z_BUF_ERROR:
        throw ForwardingError(.compression, "a gzip stream ends early", offset: consumed)
      default:
        throw ForwardingError(.compression, "a gzip stream is damaged", offset: consumed)
      }
    }
  }
}

/// A gzip compressor that keeps its state (libdeflate's, a few hundred KiB at level 1) from one
/// body to the next, so a forwarder compresses every batch without setting it up again. Not for
/// use from two threads at once.
///
/// Compression is libdeflate's whole-buffer gzip: a body is in memory whole when it is sent, and
/// at level 1 libdeflate takes about 16 instructions per byte of OTLP log records where zlib's
/// streaming deflate took about 28, its output 3.5 % larger on the benchmark's records. Any
/// gzip reader reads it; ``Gzip/decompress(_:maxOutputSize:)`` reads through zlib.
public final class GzipCompressor {
  private let compressor: OpaquePointer
  /// The level it compresses at.
  public let level: Int32

  /// Creates a compressor.
  ///
  /// - Parameter level: The level, 0 (store) … 9 (smallest), on zlib's scale.
  /// - Throws: ``ForwardingError/Code/invalidArgument`` for a level outside 0…9;
  ///   ``ForwardingError/Code/compression`` if the compressor cannot be made.
  public init(level: Int32 = Gzip.defaultLevel) throws(ForwardingError) {
    guard (0...9).contains(level) else {
      throw ForwardingError(.invalidArgument, "gzip level \(level) is not in 0…9")
    }
    guard let compressor = libdeflate_alloc_compressor(level) else {
      throw ForwardingError(.compression, "libdeflate could not start a compression")
    }
    self.compressor = compressor
    self.level = level
  }

  deinit {
    libdeflate_free_compressor(compressor)
  }

  /// Appends `input`, compressed into one gzip member, to `output`.
  ///
  /// - Throws: ``ForwardingError/Code/tooLarge`` for an input of 2 GiB or more;
  ///   ``ForwardingError/Code/compression`` if the compression fails.
  public func compress(_ input: [UInt8], appendingTo output: inout [UInt8])
    throws(ForwardingError)
  {
    guard input.count < UInt32.max / 2 else {
      throw ForwardingError(.tooLarge, "a body of \(input.count) bytes is too large to compress")
    }
    let bound = libdeflate_gzip_compress_bound(compressor, input.count)
    var written = 0
    let compressed = [UInt8](unsafeUninitializedCapacity: bound) { destination, initialized in
      initialized = 0
      input.withUnsafeBytes { source in
        // An empty input still needs a valid pointer.
        var empty: UInt8 = 0
        withUnsafeMutablePointer(to: &empty) { emptyPointer in
          guard let target = destination.baseAddress else { return }
          written = libdeflate_gzip_compress(
            compressor, source.baseAddress ?? UnsafeRawPointer(emptyPointer), input.count, target,
            bound)
          initialized = written
        }
      }
    }
    guard written > 0 else {
      throw ForwardingError(.compression, "libdeflate failed to compress \(input.count) bytes")
    }
    // The usual caller starts from an empty buffer: it takes the compressed bytes as they are.
    if output.isEmpty {
      output = compressed
    } else {
      output.append(contentsOf: compressed)
    }
  }
}
