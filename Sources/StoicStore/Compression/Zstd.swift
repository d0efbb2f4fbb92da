internal import CStoicZstd

/// zstd compression of whole buffers, with a bounded output on the way back.
///
/// The journal's sealed segments and the outbox's snapshots are stored through this. Callers
/// still checksum what they store: a damaged block is caught by its CRC before it reaches the
/// decompressor, and the decompressor itself refuses bad input with a typed error, never a crash.
public enum Zstd {
  /// The default compression level (zstd's own default, 3): fast, with a good ratio on logs.
  public static let defaultLevel: Int32 = 3

  /// Compresses `bytes` into one zstd frame that records its content size.
  ///
  /// - Parameters:
  ///   - bytes: The bytes to compress.
  ///   - level: zstd level, 1 (fastest) … 19; negative levels trade ratio for speed.
  /// - Throws: ``StoreError/Code/invalidArgument`` if zstd refuses the level or input.
  public static func compress(_ bytes: [UInt8], level: Int32 = defaultLevel) throws(StoreError)
    -> [UInt8]
  {
    try bytes.withStoreBytes { (input) throws(StoreError) -> [UInt8] in
      try compress(input, level: level)
    }
  }

  /// Compresses the bytes in `input` into one zstd frame that records its content size.
  public static func compress(_ input: UnsafeRawBufferPointer, level: Int32 = defaultLevel)
    throws(StoreError) -> [UInt8]
  {
    let bound = ZSTD_compressBound(input.count)
    var code = 0
    let output = [UInt8](unsafeUninitializedCapacity: bound) { buffer, initialized in
      code = ZSTD_compress(buffer.baseAddress, bound, input.baseAddress, input.count, level)
      initialized = ZSTD_isError(code) != 0 ? 0 : code
    }
    if ZSTD_isError(code) != 0 {
      throw StoreError(.invalidArgument, "zstd compression failed: \(errorName(code))")
    }
    return output
  }

  /// Decompresses one or more zstd frames, refusing to produce more than `maxOutputSize` bytes.
  ///
  /// - Throws: ``StoreError/Code/corrupt`` if the input is not valid zstd, is truncated, or
  ///   would decompress to more than `maxOutputSize` bytes.
  public static func decompress(_ bytes: [UInt8], maxOutputSize: Int) throws(StoreError)
    -> [UInt8]
  {
    try bytes.withStoreBytes { (input) throws(StoreError) -> [UInt8] in
      try decompress(input, maxOutputSize: maxOutputSize)
    }
  }

  /// Decompresses `bytes`, refusing to produce more than `maxOutputSize` bytes, with
  /// `overLimit` as the error's code when the output would pass the limit.
  ///
  /// - Throws: `overLimit` for an output over the limit; ``StoreError/Code/corrupt`` for input
  ///   that is not valid zstd or is truncated.
  package static func decompress(
    _ bytes: [UInt8], maxOutputSize: Int, overLimit: StoreError.Code
  ) throws(StoreError) -> [UInt8] {
    try bytes.withStoreBytes { (input) throws(StoreError) -> [UInt8] in
      try decompress(input, maxOutputSize: maxOutputSize, overLimit: overLimit)
    }
  }

  /// Decompresses the bytes in `input`, refusing to produce more than `maxOutputSize` bytes.
  public static func decompress(_ input: UnsafeRawBufferPointer, maxOutputSize: Int)
    throws(StoreError) -> [UInt8]
  {
    try decompress(input, maxOutputSize: maxOutputSize, overLimit: .corrupt)
  }

  /// Decompresses the bytes in `input`, refusing to produce more than `maxOutputSize` bytes,
  /// with `overLimit` as the error's code when the output would pass the limit (a receiver
  /// answers that differently from input that is not zstd: `413` rather than `400`).
  ///
  /// - Throws: `overLimit` for an output over the limit; ``StoreError/Code/corrupt`` for input
  ///   that is not valid zstd or is truncated.
  package static func decompress(
    _ input: UnsafeRawBufferPointer, maxOutputSize: Int, overLimit: StoreError.Code
  ) throws(StoreError) -> [UInt8] {
    guard maxOutputSize >= 0 else {
      throw StoreError(.invalidArgument, "maxOutputSize must not be negative")
    }
    guard let stream = ZSTD_createDStream() else {
      throw StoreError(.temporarilyUnavailable, "zstd could not allocate a decompression context")
    }
    defer { ZSTD_freeDStream(stream) }
    ZSTD_initDStream(stream)

    var output: [UInt8] = []
    let declared = ZSTD_getFrameContentSize(input.baseAddress, input.count)
    // ZSTD_CONTENTSIZE_UNKNOWN and _ERROR are the two largest UInt64 values.
    if declared < UInt64.max - 1 {
      guard declared <= UInt64(maxOutputSize) else {
        throw StoreError(
          overLimit, "zstd frame declares \(declared) bytes, over the limit of \(maxOutputSize)")
      }
      // The header is untrusted until the frame decodes: reserve at most a bounded amount, so a
      // forged size under a generous limit cannot make the allocation itself fail.
      output.reserveCapacity(Int(min(declared, UInt64(maximumReservation))))
    }
    let chunk = min(max(Int(ZSTD_DStreamOutSize()), 1), max(maxOutputSize, 1))
    var scratch = [UInt8](repeating: 0, count: chunk)
    var inBuffer = ZSTD_inBuffer(src: input.baseAddress, size: input.count, pos: 0)
    var lastCode = 0
    while true {
      let produced: Int = scratch.withUnsafeMutableBytes { out in
        var outBuffer = ZSTD_outBuffer(dst: out.baseAddress, size: out.count, pos: 0)
        lastCode = ZSTD_decompressStream(stream, &outBuffer, &inBuffer)
        return outBuffer.pos
      }
      if ZSTD_isError(lastCode) != 0 {
        throw StoreError(.corrupt, "zstd input is not valid: \(errorName(lastCode))")
      }
      if output.count + produced > maxOutputSize {
        throw StoreError(overLimit, "zstd input decompresses to more than \(maxOutputSize) bytes")
      }
      output.append(contentsOf: scratch[0..<produced])
      guard inBuffer.pos == inBuffer.size else { continue }
      // All input is consumed. lastCode == 0 means the last frame is complete and flushed (a
      // further call would read the hint for a next frame's header, not a 0). Otherwise, a
      // full output buffer may have more to flush; one with room left means the decoder is
      // waiting for input that is not there: a truncated frame.
      if lastCode == 0 { return output }
      if produced < chunk {
        throw StoreError(.corrupt, "zstd input ends in the middle of a frame")
      }
    }
  }

  /// The most ``decompress(_:maxOutputSize:)`` reserves up front from a frame's declared size
  /// (16 MiB); larger outputs grow as they are decoded.
  static let maximumReservation = 1 << 24

  static func errorName(_ code: Int) -> String {
    String(cString: ZSTD_getErrorName(code))
  }
}

extension Zstd {
  /// A reusable zstd decompression context for one reader at a time (not shareable between
  /// threads). Decompressing many small frames through one context avoids creating and freeing
  /// a context and its buffers per frame.
  final class Decompressor {
    private let context: OpaquePointer?

    init() { context = ZSTD_createDCtx() }

    deinit { ZSTD_freeDCtx(context) }

    /// Decompresses `input`, which must hold frames of exactly `size` bytes, into `output`
    /// (replacing its contents, reusing its storage).
    ///
    /// - Throws: ``StoreError/Code/corrupt`` if the input is not valid zstd or does not
    ///   decompress to exactly `size` bytes; ``StoreError/Code/temporarilyUnavailable`` if no
    ///   context could be allocated.
    func decompress(_ input: UnsafeRawBufferPointer, size: Int, into output: inout [UInt8])
      throws(StoreError)
    {
      guard let context else {
        throw StoreError(.temporarilyUnavailable, "zstd could not allocate a decompression context")
      }
      guard size >= 0 else { throw StoreError(.invalidArgument, "size must not be negative") }
      if output.count != size {
        output.removeAll(keepingCapacity: true)
        output.append(contentsOf: repeatElement(0, count: size))
      }
      let code = output.withUnsafeMutableBytes { out in
        ZSTD_decompressDCtx(context, out.baseAddress, out.count, input.baseAddress, input.count)
      }
      if ZSTD_isError(code) != 0 {
        throw StoreError(.corrupt, "zstd input is not valid: \(Zstd.errorName(code))")
      }
      guard code == size else {
        throw StoreError(.corrupt, "zstd input decompressed to \(code) bytes, not \(size)")
      }
    }

    /// Decompresses `input`, which must hold frames of exactly `output.count` bytes, into
    /// `output` (no byte past it is written).
    ///
    /// - Throws: ``StoreError/Code/corrupt`` if the input is not valid zstd or does not
    ///   decompress to exactly `output.count` bytes; ``StoreError/Code/temporarilyUnavailable``
    ///   if no context could be allocated.
    func decompress(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer)
      throws(StoreError)
    {
      guard let context else {
        throw StoreError(.temporarilyUnavailable, "zstd could not allocate a decompression context")
      }
      let code = ZSTD_decompressDCtx(
        context, output.baseAddress, output.count, input.baseAddress, input.count)
      if ZSTD_isError(code) != 0 {
        throw StoreError(.corrupt, "zstd input is not valid: \(Zstd.errorName(code))")
      }
      guard code == output.count else {
        throw StoreError(
          .corrupt, "zstd input decompressed to \(code) bytes, not \(output.count)")
      }
    }
  }
}

extension Zstd {
  /// A reusable zstd compression context for one writer at a time (not shareable between
  /// threads): compressing many blocks through one context avoids allocating its tables per
  /// block.
  package final class Compressor {
    private let context: OpaquePointer?

    /// A compressor with a context of its own (checked at its first use).
    package init() { context = ZSTD_createCCtx() }

    deinit { ZSTD_freeCCtx(context) }

    /// Compresses `input` into one zstd frame that records its content size.
    /// - Throws: ``StoreError/Code/invalidArgument`` if zstd refuses the level or input;
    ///   ``StoreError/Code/temporarilyUnavailable`` if no context could be allocated.
    package func compress(_ input: UnsafeRawBufferPointer, level: Int32) throws(StoreError)
      -> [UInt8]
    {
      guard let context else {
        throw StoreError(.temporarilyUnavailable, "zstd could not allocate a compression context")
      }
      let bound = ZSTD_compressBound(input.count)
      var code = 0
      let output = [UInt8](unsafeUninitializedCapacity: bound) { buffer, initialized in
        code = ZSTD_compressCCtx(
          context, buffer.baseAddress, bound, input.baseAddress, input.count, level)
        initialized = ZSTD_isError(code) != 0 ? 0 : code
      }
      if ZSTD_isError(code) != 0 {
        throw StoreError(.invalidArgument, "zstd compression failed: \(Zstd.errorName(code))")
      }
      return output
    }

    /// Compresses `input` into one zstd frame that records its content size and appends it to
    /// `output`, which grows by at most `ZSTD_compressBound(input.count)` bytes.
    ///
    /// - Parameters:
    ///   - level: zstd level.
    ///   - minimumMatch: when given, the shortest match the compressor looks for (zstd's
    ///     `ZSTD_c_minMatch`, clamped to 3...7); on records full of identifiers and numbers a
    ///     longer minimum keeps short matches that cost more than the literals they replace.
    /// - Throws: ``StoreError/Code/invalidArgument`` if zstd refuses a parameter or the input;
    ///   ``StoreError/Code/temporarilyUnavailable`` if no context could be allocated.
    func compress(
      _ input: UnsafeRawBufferPointer, level: Int32, minimumMatch: Int32?,
      appendingTo output: inout [UInt8]
    ) throws(StoreError) {
      guard let context else {
        throw StoreError(.temporarilyUnavailable, "zstd could not allocate a compression context")
      }
      ZSTD_CCtx_reset(context, ZSTD_reset_session_and_parameters)
      var code = ZSTD_CCtx_setParameter(context, ZSTD_c_compressionLevel, level)
      if ZSTD_isError(code) == 0, let minimumMatch {
        code = ZSTD_CCtx_setParameter(context, ZSTD_c_minMatch, min(max(minimumMatch, 3), 7))
      }
      if ZSTD_isError(code) != 0 {
        throw StoreError(.invalidArgument, "zstd refused a parameter: \(Zstd.errorName(code))")
      }
      let start = output.count
      let bound = ZSTD_compressBound(input.count)
      output.append(contentsOf: repeatElement(0, count: bound))
      let written: Int? = output.withUnsafeMutableBytes { out in
        out.baseAddress.map {
          ZSTD_compress2(context, $0 + start, bound, input.baseAddress, input.count)
        }
      }
      guard let written, ZSTD_isError(written) == 0 else {
        output.removeSubrange(start...)
        let reason = written.map { Zstd.errorName($0) } ?? "no output buffer"
        throw StoreError(.invalidArgument, "zstd compression failed: \(reason)")
      }
      output.removeSubrange((start + written)...)
    }
  }
}
