import StoicStore
import StoicTesting
import Testing

@testable import StoicTelemetry

/// The samples' encoding: round trips, canonical bytes, and a decoder that never traps or
/// misreads, whatever the bytes.
@Suite("MetricSampleFormat: round trips and hostile bytes")
struct MetricsSampleFormatTests {
  /// A random sample of any kind (no NaN, so that samples compare equal).
  static func randomSample(_ random: inout SplitMix64) -> MetricSample {
    let kind = MetricKind.allCases[Int(random.next() % 4)]
    let texts = ["", "a", "http.requests", "Größe", "日本", "emoji 🚀", "x.y.z_1"]
    func text() -> String { texts[Int(random.next() % UInt64(texts.count))] }
    let dimensions = (0..<Int(random.next() % 4)).map { index in
      MetricDimension("k\(index)", text())
    }
    let number = Double(Int64(bitPattern: random.next()) % 1_000_000) / 8
    let value: MetricSample.Value
    switch kind {
    case .counter:
      value = .integer(Int64(bitPattern: random.next()))
    case .floatingPointCounter, .gauge:
      value = .double(number)
    case .histogram:
      let bounds = (0..<Int(random.next() % 6)).map { Double($0 * 10) - 5 }
      let counts = (0...bounds.count).map { _ in random.next() % 1000 }
      let empty = random.next() % 3 == 0
      value = .histogram(
        MetricHistogram(
          bounds: bounds, bucketCounts: counts, sum: number, min: empty ? nil : -number,
          max: empty ? nil : number))
    }
    return MetricSample(
      name: text(), dimensions: dimensions, kind: kind, unit: random.next() % 2 == 0 ? "" : "ns",
      startNanoseconds: random.next(), timeNanoseconds: random.next(), value: value)
  }

  @Test("random samples survive encoding and decoding, alone and in records of many")
  func roundTrip() {
    var random = SplitMix64(seed: 1)
    for _ in 0..<500 {
      let samples = (0..<Int(random.next() % 5)).map { _ in Self.randomSample(&random) }
      let bytes = MetricSampleFormat.encode(samples)
      #expect(MetricSampleFormat.decode(bytes) == .samples(samples))
    }
  }

  @Test("large flushes are split into records of bounded size, each decoding to its part")
  func splitRecords() {
    var random = SplitMix64(seed: 2)
    let samples = (0..<20_000).map { _ in Self.randomSample(&random) }
    let records = MetricSampleFormat.encodeRecords(samples)
    #expect(records.count > 1)
    #expect(records.allSatisfy { $0.count <= MetricSampleFormat.maximumRecordBytes + 4096 })
    var decoded: [MetricSample] = []
    for record in records {
      guard case .samples(let part) = MetricSampleFormat.decode(record) else {
        Issue.record("a record did not decode")
        return
      }
      decoded += part
    }
    #expect(decoded == samples)
  }

  @Test("every cut of a record is refused as damaged")
  func truncations() {
    var random = SplitMix64(seed: 3)
    let samples = (0..<3).map { _ in Self.randomSample(&random) }
    let bytes = MetricSampleFormat.encode(samples)
    for length in 0..<bytes.count {
      guard case .damaged = MetricSampleFormat.decode(Array(bytes[..<length])) else {
        Issue.record("a record cut to \(length) of \(bytes.count) bytes was accepted")
        return
      }
    }
  }

  @Test("random and bit-flipped bytes never trap; whatever decodes re-encodes to the same bytes")
  func hostileBytes() {
    var random = SplitMix64(seed: 4)
    var decodedCount = 0
    for round in 0..<20_000 {
      var bytes: [UInt8]
      if round % 2 == 0 {
        bytes = (0..<Int(random.next() % 200)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        if !bytes.isEmpty && round % 4 == 0 { bytes[0] = 1 }
      } else {
        let samples = (0..<Int(1 + random.next() % 2)).map { _ in Self.randomSample(&random) }
        bytes = MetricSampleFormat.encode(samples)
        for _ in 0..<Int(1 + random.next() % 3) {
          let index = Int(random.next() % UInt64(bytes.count))
          bytes[index] ^= UInt8(1) << UInt8(random.next() % 8)
        }
      }
      switch MetricSampleFormat.decode(bytes) {
      case .samples(let samples):
        decodedCount += 1
        #expect(MetricSampleFormat.encode(samples) == bytes, "misread: \(bytes)")
      case .newerVersion(let version):
        #expect(version > MetricSampleFormat.version && bytes.first == version)
      case .damaged:
        break
      }
    }
    // Flips in values (counts, times) decode: they are only numbers.
    #expect(decodedCount > 100)
  }

  @Test("a record of a later version is reported as such, never decoded")
  func newerVersion() {
    var random = SplitMix64(seed: 5)
    var bytes = MetricSampleFormat.encode([Self.randomSample(&random)])
    for version in UInt8(2)...UInt8(255) {
      bytes[0] = version
      #expect(MetricSampleFormat.decode(bytes) == .newerVersion(version))
    }
    bytes[0] = 0
    guard case .damaged = MetricSampleFormat.decode(bytes) else {
      Issue.record("version 0 was accepted")
      return
    }
  }

  @Test("the decoder refuses unsorted dimensions, bad bounds, bad UTF-8 and stray min/max")
  func strictness() {
    func record(_ sample: MetricSample, _ patch: (inout [UInt8]) -> Void) -> [UInt8] {
      var bytes = MetricSampleFormat.encode([sample])
      patch(&bytes)
      return bytes
    }
    func isDamaged(_ bytes: [UInt8]) -> Bool {
      if case .damaged = MetricSampleFormat.decode(bytes) { return true }
      return false
    }
    let counter = MetricSample(
      name: "n", dimensions: [MetricDimension("a", "1"), MetricDimension("b", "2")],
      kind: .counter, startNanoseconds: 1, timeNanoseconds: 2, value: .integer(3))
    // Swap the keys "a" and "b": no longer sorted.
    let unsorted = record(counter) { bytes in
      let a = bytes.lastIndex(of: UInt8(ascii: "a")) ?? 0
      let b = bytes.lastIndex(of: UInt8(ascii: "b")) ?? 0
      bytes.swapAt(a, b)
    }
    #expect(isDamaged(unsorted))
    let badUTF8 = record(counter) { bytes in
      if let index = bytes.lastIndex(of: UInt8(ascii: "n")) { bytes[index] = 0xFF }
    }
    #expect(isDamaged(badUTF8))
    let histogram = MetricSample(
      name: "h", dimensions: [], kind: .histogram, startNanoseconds: 1, timeNanoseconds: 2,
      value: .histogram(
        MetricHistogram(bounds: [1, 2], bucketCounts: [0, 0, 0], sum: 0, min: nil, max: nil)))
    let strayMax = record(histogram) { bytes in bytes[bytes.count - 1] = 0x40 }
    #expect(isDamaged(strayMax))
    // Bounds 1, 2 become 1, 1: not increasing.
    let sameBounds = record(histogram) { bytes in
      let two = withUnsafeBytes(of: Double(2).bitPattern.littleEndian) { Array($0) }
      let one = withUnsafeBytes(of: Double(1).bitPattern.littleEndian) { Array($0) }
      if let start = (0...(bytes.count - 8)).first(where: { Array(bytes[$0..<($0 + 8)]) == two }) {
        bytes.replaceSubrange(start..<(start + 8), with: one)
      }
    }
    #expect(isDamaged(sameBounds))
    // A kind that does not exist.
    let kindAt = MetricSampleFormat.recordHeaderSize + MetricSampleFormat.sampleKindOffset
    #expect(isDamaged(record(counter) { $0[kindAt] = 9 }))
  }

  @Test("the fields are at the offsets the format names")
  func namedOffsets() {
    let sample = MetricSample(
      name: "n", dimensions: [], kind: .histogram, startNanoseconds: 0x0102_0304_0506_0708,
      timeNanoseconds: 0x1112_1314_1516_1718,
      value: .histogram(
        MetricHistogram(bounds: [1], bucketCounts: [1, 2], sum: 3, min: 1, max: 2)))
    let bytes = MetricSampleFormat.encode([sample, sample])
    func word(_ offset: Int) -> UInt64 {
      bytes.withUnsafeBytes {
        UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
      }
    }
    #expect(bytes[0] == MetricSampleFormat.version)
    #expect(bytes[MetricSampleFormat.sampleCountOffset] == 2)
    let first = MetricSampleFormat.recordHeaderSize
    #expect(bytes[first + MetricSampleFormat.sampleKindOffset] == MetricKind.histogram.rawValue)
    #expect(bytes[first + MetricSampleFormat.sampleFlagsOffset] == MetricSampleFormat.hasMinMaxFlag)
    #expect(word(first + MetricSampleFormat.sampleStartOffset) == sample.startNanoseconds)
    #expect(word(first + MetricSampleFormat.sampleTimeOffset) == sample.timeNanoseconds)
    #expect(bytes.count - first >= 2 * MetricSampleFormat.sampleHeaderSize)
  }
}
