import StoicStore
import StoicTesting
import Testing

@Suite("Zstd: round trips, bounded output, bad input refused with a typed error")
struct ZstdTests {

  /// Lines that look like a service's logs: timestamps, levels, ids, paths and durations.
  static func logText(bytes target: Int, seed: UInt64) -> [UInt8] {
    var generator = SplitMix64(seed: seed)
    let levels = ["INFO", "INFO", "INFO", "DEBUG", "WARN", "ERROR"]
    let routes = ["/api/v1/items", "/api/v1/users", "/healthz", "/api/v2/orders", "/metrics"]
    let statuses = ["200", "200", "200", "201", "204", "404", "500", "503"]
    var text: [UInt8] = []
    text.reserveCapacity(target + 200)
    var second = 0
    while text.count < target {
      second += Int.random(in: 0...2, using: &generator)
      let line =
        "2026-11-29T12:\(second / 60 % 60):\(second % 60).\(Int.random(in: 100...999, using: &generator))Z "
        + "\(levels.randomElement(using: &generator) ?? "INFO") [worker-\(Int.random(in: 1...8, using: &generator))] "
        + "request id=\(String(generator.next() & 0xFFFF_FFFF, radix: 16)) "
        + "route=\(routes.randomElement(using: &generator) ?? "/")/\(Int.random(in: 1...5000, using: &generator)) "
        + "status=\(statuses.randomElement(using: &generator) ?? "200") "
        + "duration_ms=\(Int.random(in: 1...900, using: &generator))\n"
      text.append(contentsOf: line.utf8)
    }
    return text
  }

  @Test("empty and small inputs round trip")
  func smallRoundTrips() throws {
    for input in [[], [0], Array("hello, zstd".utf8), [UInt8](repeating: 7, count: 100_000)] {
      let frame = try Zstd.compress(input)
      #expect(!frame.isEmpty)
      #expect(try Zstd.decompress(frame, maxOutputSize: input.count) == input)
    }
  }

  @Test("outputs that exactly fill the decode buffer (128 KiB and multiples) round trip")
  func exactBufferMultiples() throws {
    for count in [1 << 17, 2 << 17, 3 << 17] {
      let input = Self.logText(bytes: count, seed: UInt64(count))[..<count]
      let frame = try Zstd.compress(Array(input))
      #expect(try Zstd.decompress(frame, maxOutputSize: 10_000_000) == Array(input))
      #expect(try Zstd.decompress(frame, maxOutputSize: count) == Array(input))
    }
  }

  @Test("10 MB of log-like text round trips with a ratio above 3")
  func largeLogText() throws {
    let text = Self.logText(bytes: 10_000_000, seed: 2026)
    let frame = try Zstd.compress(text)
    #expect(frame.count * 3 < text.count, "ratio \(Double(text.count) / Double(frame.count))")
    #expect(try Zstd.decompress(frame, maxOutputSize: text.count) == text)
  }

  @Test("maxOutputSize is enforced with a corrupt error, one byte short included")
  func maxOutputSizeEnforced() throws {
    let input = Self.logText(bytes: 5_000, seed: 1)
    let frame = try Zstd.compress(input)
    #expect(try Zstd.decompress(frame, maxOutputSize: input.count) == input)
    for limit in [input.count - 1, 100, 0] {
      let error = try #require(throws: StoreError.self) {
        try Zstd.decompress(frame, maxOutputSize: limit)
      }
      #expect(error.code == .corrupt, "limit \(limit)")
      #expect(error.retryDecision == .stop)
    }
    let negative = try #require(throws: StoreError.self) {
      try Zstd.decompress(frame, maxOutputSize: -1)
    }
    #expect(negative.code == .invalidArgument)
  }

  @Test("concatenated frames decompress to the concatenation, within the limit on the total")
  func concatenatedFrames() throws {
    let first = Array("first frame ".utf8) + Self.logText(bytes: 3_000, seed: 3)
    let second = Array("second frame".utf8) + Self.logText(bytes: 2_000, seed: 4)
    let frames = try Zstd.compress(first) + Zstd.compress(second) + Zstd.compress([])
    let total = first.count + second.count
    #expect(try Zstd.decompress(frames, maxOutputSize: total) == first + second)
    // Over the limit only in the second frame, which the first frame's header does not declare.
    let error = try #require(throws: StoreError.self) {
      try Zstd.decompress(frames, maxOutputSize: total - 1)
    }
    #expect(error.code == .corrupt)
  }

  @Test("garbage, empty and truncated input throw corrupt")
  func garbageAndTruncated() throws {
    var generator = SplitMix64(seed: 11)
    let garbage = (0..<1_000).map { _ in UInt8.random(in: 0...255, using: &generator) }
    for input in [garbage, [], Array("not zstd at all".utf8), [0x28, 0xB5, 0x2F, 0xFD]] {
      let error = try #require(throws: StoreError.self) {
        try Zstd.decompress(input, maxOutputSize: 1 << 20)
      }
      #expect(error.code == .corrupt)
    }
    let input = Self.logText(bytes: 20_000, seed: 5)
    let frame = try Zstd.compress(input)
    var cuts = Array(0..<64) + Array(stride(from: 64, to: frame.count, by: 97))
    cuts.append(frame.count - 1)
    for cut in cuts {
      let error = try #require(throws: StoreError.self) {
        try Zstd.decompress(Array(frame[..<cut]), maxOutputSize: input.count)
      }
      #expect(error.code == .corrupt, "cut at \(cut) of \(frame.count)")
    }
  }

  @Test("a header declaring a huge size is refused without allocating it, whatever the limit")
  func hugeDeclaredSize() throws {
    // Magic, a descriptor with an 8-byte content size and a single segment, 2^50 bytes
    // then one empty last raw block.
    let header: [UInt8] = [0x28, 0xB5, 0x2F, 0xFD, 0xE0, 0, 0, 0, 0, 0, 0, 0x04, 0, 0x01, 0, 0]
    for limit in [1 << 20, Int.max] {
      let error = try #require(throws: StoreError.self) {
        try Zstd.decompress(header, maxOutputSize: limit)
      }
      #expect(error.code == .corrupt, "limit \(limit)")
    }
  }

  @Test("every single bit flip of a frame gives a typed error or bounded output, never a crash")
  func bitFlips() throws {
    let input = Self.logText(bytes: 2_000, seed: 6)
    let frame = try Zstd.compress(input)
    var refused = 0
    var decoded = 0
    for index in frame.indices {
      for bit in 0..<8 {
        var damaged = frame
        damaged[index] ^= 1 << bit
        do throws(StoreError) {
          let output = try Zstd.decompress(damaged, maxOutputSize: input.count * 2)
          #expect(output.count <= input.count * 2)
          decoded += 1
        } catch {
          #expect(error.code == .corrupt)
          refused += 1
        }
      }
    }
    #expect(refused + decoded == frame.count * 8)
    // Frames carry no content checksum, so a flip inside literals or in unused header bits
    // decodes to (wrong) bytes without complaint: only about a third of the flips are refused
    // here. That is why every stored block is also covered by a CRC32C.
    #expect(refused > 0, "refused \(refused) of \(frame.count * 8)")
    #expect(decoded > 0, "decoded \(decoded) of \(frame.count * 8)")
  }
}
