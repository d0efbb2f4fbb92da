import StoicForwarding
import StoicTestSupport
import StoicTesting
import Testing

/// gzip (libdeflate writes, zlib reads): round trips, the output limit (a small body expanding
/// to a large one), damaged and truncated streams, concatenated members.
@Suite("gzip")
struct GzipTests {
  @Test("round trips at every level, empty and large inputs included")
  func roundTrips() throws {
    var random = SplitMix64(seed: 9)
    let inputs: [[UInt8]] = [
      [], [0x42], Array("hello hello hello hello".utf8),
      (0..<300_000).map { _ in UInt8.random(in: 0...255, using: &random) },
      OTLPSamples.logsRequest.encoded(as: .protobuf),
    ]
    for level: Int32 in [0, 1, 6, 9] {
      for input in inputs {
        let compressed = try Gzip.compress(input, level: level)
        #expect(compressed.starts(with: [0x1F, 0x8B]), "a gzip member starts with its magic")
        #expect(try Gzip.decompress(compressed, maxOutputSize: input.count) == input)
      }
    }
  }

  @Test("one compressor serves many bodies, each a whole member")
  func reusedCompressor() throws {
    let compressor = try GzipCompressor(level: 1)
    var output: [UInt8] = []
    for index in 0..<20 {
      let input = Array(String(repeating: "record \(index) ", count: index * 50).utf8)
      output.removeAll(keepingCapacity: true)
      try compressor.compress(input, appendingTo: &output)
      #expect(try Gzip.decompress(output, maxOutputSize: 1 << 20) == input)
    }
  }

  @Test("a body that would expand past the limit is refused before it is allocated")
  func zipBomb() throws {
    let bomb = try Gzip.compress([UInt8](repeating: 0, count: 50 << 20), level: 9)
    #expect(bomb.count < 100_000)
    #expect {
      try Gzip.decompress(bomb, maxOutputSize: 1 << 20)
    } throws: { error in
      (error as? ForwardingError)?.code == .tooLarge
    }
    let exact = try Gzip.compress([UInt8](repeating: 7, count: 1000))
    #expect(try Gzip.decompress(exact, maxOutputSize: 1000).count == 1000)
    #expect(throws: ForwardingError.self) { try Gzip.decompress(exact, maxOutputSize: 999) }
  }

  @Test("damaged, truncated and foreign streams are refused with a typed error")
  func damaged() throws {
    let good = try Gzip.compress(Array(String(repeating: "stoic ", count: 200).utf8))
    var flipped = good
    flipped[good.count / 2] ^= 0x10
    var badCRC = good
    badCRC[good.count - 6] ^= 0xFF  // the CRC32 in the trailer
    let cases: [[UInt8]] = [
      [], [0x1F], Array(good.prefix(good.count - 1)), Array(good.prefix(10)), flipped, badCRC,
      Array("not gzip at all".utf8), good + [0x00, 0x01],
    ]
    for bytes in cases {
      #expect {
        try Gzip.decompress(bytes, maxOutputSize: 1 << 20)
      } throws: { error in
        guard let error = error as? ForwardingError else { return false }
        return error.code == .compression || error.code == .tooLarge
      }
    }
  }

  @Test("concatenated members read as one body")
  func concatenatedMembers() throws {
    let first = try Gzip.compress(Array("first,".utf8))
    let second = try Gzip.compress(Array("second".utf8))
    #expect(try Gzip.decompress(first + second, maxOutputSize: 100) == Array("first,second".utf8))
    #expect(throws: ForwardingError.self) { try Gzip.decompress(first + second, maxOutputSize: 8) }
  }

  @Test("random bytes never crash the decompressor (seeded)")
  func randomBytes() {
    var random = SplitMix64(seed: 0x6219)
    let header: [UInt8] = [0x1F, 0x8B, 0x08, 0x00, 0, 0, 0, 0, 0x00, 0x03]
    for _ in 0..<2000 {
      let body = (0..<Int.random(in: 0...200, using: &random)).map { _ in
        UInt8.random(in: 0...255, using: &random)
      }
      _ = try? Gzip.decompress(
        (Bool.random(using: &random) ? header : []) + body, maxOutputSize: 4096)
    }
  }
}
