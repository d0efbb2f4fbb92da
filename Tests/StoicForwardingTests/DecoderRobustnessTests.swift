import StoicForwarding
import StoicTestSupport
import StoicTesting
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Every decoder, fed random bytes and mutated valid bodies (seeded): it must never trap, and
/// whatever it accepts must re-encode to bytes it accepts again with the same meaning (the
/// re-encoding is a fixed point).
///
/// `STOIC_DECODER_CASES` sets the number of cases per decoder and encoding (default 1500);
/// `STOIC_DECODER_SEED` the seed.
@Suite("Decoders on hostile bytes")
struct DecoderRobustnessTests {
  static var cases: Int {
    getenv("STOIC_DECODER_CASES").flatMap { Int(String(cString: $0)) } ?? 1500
  }

  static var seed: UInt64 {
    getenv("STOIC_DECODER_SEED").flatMap { UInt64(String(cString: $0)) } ?? 0x0D_EC0D
  }

  /// Decodes `bytes`; if accepted, checks that encoding is a fixed point. Returns whether it
  /// was accepted.
  @discardableResult
  static func check<Message: OTLPMessage>(
    _: Message.Type, _ bytes: [UInt8], _ encoding: OTLPEncoding
  ) -> Bool {
    guard let decoded = try? Message(decoding: bytes, as: encoding) else { return false }
    let once = decoded.encoded(as: encoding)
    guard let again = try? Message(decoding: once, as: encoding) else {
      Issue.record("\(Message.self) re-encoded in \(encoding) does not decode")
      return true
    }
    #expect(again.encoded(as: encoding) == once, "\(Message.self) in \(encoding)")
    return true
  }

  static func checkAll(_ bytes: [UInt8], _ encoding: OTLPEncoding) -> Int {
    var accepted = 0
    if check(OTLP.ExportLogsServiceRequest.self, bytes, encoding) { accepted += 1 }
    if check(OTLP.ExportMetricsServiceRequest.self, bytes, encoding) { accepted += 1 }
    if check(OTLP.ExportLogsServiceResponse.self, bytes, encoding) { accepted += 1 }
    if check(OTLP.ExportMetricsServiceResponse.self, bytes, encoding) { accepted += 1 }
    if check(OTLP.Status.self, bytes, encoding) { accepted += 1 }
    return accepted
  }

  @Test("random bytes", arguments: OTLPEncoding.allCases)
  func randomBytes(encoding: OTLPEncoding) {
    var random = SplitMix64(seed: Self.seed)
    var accepted = 0
    for _ in 0..<Self.cases {
      let bytes: [UInt8]
      if encoding == .json {
        // Random JSON documents over OTLP's vocabulary, so that some are accepted.
        bytes = Array(DecoderInputs.randomJSON(&random, depth: 5, object: true).utf8)
      } else {
        bytes = (0..<Int.random(in: 0...256, using: &random)).map { _ in
          UInt8.random(in: 0...255, using: &random)
        }
      }
      accepted += Self.checkAll(bytes, encoding)
    }
    // Something must have been accepted, or the fixed-point check checked nothing.
    #expect(accepted > 0)
  }

  @Test("mutated valid bodies", arguments: OTLPEncoding.allCases)
  func mutatedBodies(encoding: OTLPEncoding) {
    var random = SplitMix64(seed: Self.seed ^ 0xFF)
    var accepted = 0
    var refused = 0
    for index in 0..<Self.cases {
      var bytes: [UInt8]
      switch index % 3 {
      case 0: bytes = OTLPSamples.randomLogs(&random).encoded(as: encoding)
      case 1: bytes = OTLPSamples.randomMetrics(&random).encoded(as: encoding)
      default: bytes = OTLPSamples.logsRequest.encoded(as: encoding)
      }
      for _ in 0..<Int.random(in: 1...4, using: &random) {
        DecoderInputs.mutate(&bytes, &random)
      }
      let count = Self.checkAll(bytes, encoding)
      accepted += count
      refused += 5 - count
    }
    #expect(accepted > 0)
    #expect(refused > 0)
  }

  @Test("length fields claiming far more than is there allocate nothing and are refused")
  func hugeLengths() {
    // A bytes field claiming 2 GiB, a packed run claiming 1 GiB, a string claiming 2^63.
    let inputs: [[UInt8]] = [
      [0x0A, 0x80, 0x80, 0x80, 0x80, 0x08],
      [0x0A, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F],
      [0x0A, 0x05, 0x12, 0x03, 0x12, 0x80, 0x80, 0x80, 0x80, 0x04],
    ]
    for bytes in inputs {
      #expect(throws: ForwardingError.self) { try OTLP.ExportLogsServiceRequest(protobuf: bytes) }
    }
  }
}
