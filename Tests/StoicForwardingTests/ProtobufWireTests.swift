import Testing

@testable import StoicForwarding

/// The protobuf wire module on its own: varints, zigzag, fixed widths, lengths, skipping,
/// and the errors a reader gives for bytes that break the format.
@Suite("Protobuf wire format")
struct ProtobufWireTests {
  static func written(_ body: (inout ProtobufWriter) -> Void) -> [UInt8] {
    var bytes: [UInt8] = []
    ProtobufWriter.append(to: &bytes, body)
    return bytes
  }

  @Test(
    "varints encode as protobuf's documentation gives them",
    arguments: [
      (0, [0x00]), (1, [0x01]), (127, [0x7F]), (128, [0x80, 0x01]),
      (150, [0x96, 0x01]), (300, [0xAC, 0x02]), (16_383, [0xFF, 0x7F]),
      (16_384, [0x80, 0x80, 0x01]),
      (UInt64.max, [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01]),
    ] as [(UInt64, [UInt8])])
  func varints(value: UInt64, bytes: [UInt8]) throws {
    #expect(Self.written { $0.varint(value) } == bytes)
    #expect(ProtobufWriter.varintSize(value) == bytes.count)
    var reader = ProtobufReader(bytes)
    #expect(try reader.varint() == value)
    #expect(reader.isAtEnd)
  }

  @Test("zigzag maps small magnitudes of either sign to small numbers, and back")
  func zigzag() {
    let pairs: [(Int64, UInt64)] = [
      (0, 0), (-1, 1), (1, 2), (-2, 3), (2_147_483_647, 4_294_967_294),
      (-2_147_483_648, 4_294_967_295), (Int64.max, UInt64.max - 1), (Int64.min, UInt64.max),
    ]
    for (signed, unsigned) in pairs {
      #expect(ProtobufWriter.zigzag(signed) == unsigned)
      #expect(ProtobufReader.unzigzag(unsigned) == signed)
    }
  }

  @Test("fields: tags, fixed widths little-endian, defaults omitted, presence kept")
  func fields() {
    let bytes = Self.written { writer in
      writer.fixed64(1, 1)
      writer.int32(2, 9)
      writer.string(3, "hi")
      writer.uint64(4, 0)  // default: omitted
      writer.string(5, "")  // default: omitted
      writer.presentString(6, "")  // oneof member: kept
      writer.double(7, 1.0)
      writer.int32(8, -1)  // sign-extended to ten bytes
      writer.fixed32(9, 0x0102_0304)
    }
    #expect(
      bytes == [
        0x09, 1, 0, 0, 0, 0, 0, 0, 0,
        0x10, 0x09,
        0x1A, 0x02, 0x68, 0x69,
        0x32, 0x00,
        0x39, 0, 0, 0, 0, 0, 0, 0xF0, 0x3F,
        0x40, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01,
        0x4D, 0x04, 0x03, 0x02, 0x01,
      ])
  }

  @Test(
    "a submessage's length is canonical whatever its size (the body moves up when needed)",
    arguments: [0, 1, 125, 126, 127, 128, 129, 16_380, 16_381, 16_382, 16_383, 70_000])
  func submessageLengths(payload: Int) throws {
    let content = [UInt8](repeating: 0x61, count: payload)
    let bytes = Self.written { writer in
      writer.varint(0xAA)  // something before, which must stay put
      writer.message(1) { inner in
        inner.presentBytes(2, content)
      }
      writer.varint(0xBB)  // and after
    }
    let innerLength = 1 + ProtobufWriter.varintSize(UInt64(payload)) + payload
    let expected: [UInt8] =
      [0xAA, 0x01, 0x0A] + Self.written { $0.varint(UInt64(innerLength)) } + [0x12]
      + Self.written { $0.varint(UInt64(payload)) } + content + [0xBB, 0x01]
    #expect(bytes == expected)
    var reader = ProtobufReader(bytes)
    #expect(try reader.varint() == 0xAA)
    #expect(try reader.nextField()?.number == 1)
    var inner = try reader.message()
    #expect(try inner.nextField()?.number == 2)
    #expect(try inner.bytes() == content)
    #expect(inner.isAtEnd)
    #expect(try reader.varint() == 0xBB)
    #expect(reader.isAtEnd)
  }

  @Test("nested submessages each get their own length")
  func nestedSubmessages() {
    let bytes = Self.written { writer in
      writer.message(1) { a in
        a.message(2) { b in
          b.presentBytes(3, [UInt8](repeating: 7, count: 200))
        }
      }
    }
    // field 3: 1 tag + 2 length + 200 = 203; field 2: 1 + 2 + 203 = 206; field 1: 1 + 2 + 206.
    #expect(bytes.count == 209)
    #expect(Array(bytes.prefix(6)) == [0x0A, 0xCE, 0x01, 0x12, 0xCB, 0x01])
  }

  @Test("packed and unpacked repeated 8-byte fields read the same")
  func repeatedFixed64() throws {
    let packed = Self.written { $0.packedFixed64(6, [1, 2, UInt64.max]) }
    let unpacked = Self.written { writer in
      for value: UInt64 in [1, 2, UInt64.max] { writer.presentFixed64(6, value) }
    }
    for bytes in [packed, unpacked] {
      var reader = ProtobufReader(bytes)
      var values: [UInt64] = []
      while let (_, wireType) = try reader.nextField() {
        try reader.repeated64(wireType, into: &values)
      }
      #expect(values == [1, 2, UInt64.max])
    }
  }

  @Test("unknown fields of every wire type are skipped, groups included")
  func skipping() throws {
    let bytes: [UInt8] =
      [0x08, 0x96, 0x01]  // 1: varint
      + [0x11, 1, 2, 3, 4, 5, 6, 7, 8]  // 2: fixed64
      + [0x1A, 0x03, 1, 2, 3]  // 3: length-delimited
      + [0x23, 0x08, 0x01, 0x2B, 0x2C, 0x24]  // 4: group holding field 1 and group 5
      + [0x35, 1, 2, 3, 4]  // 6: fixed32
      + [0x38, 0x07]  // 7: varint, the one we read
    var reader = ProtobufReader(bytes)
    var found: UInt64? = nil
    while let (number, wireType) = try reader.nextField() {
      if number == 7 {
        found = try reader.varint()
      } else {
        try reader.skip(wireType, field: number)
      }
    }
    #expect(found == 7)
  }

  @Test(
    "bytes that break the format are typed errors",
    arguments: [
      ([0x08], .truncated),  // varint missing
      ([0x08, 0x80], .truncated),  // varint cut
      ([0x08] + [UInt8](repeating: 0x80, count: 10) + [0x01], .malformed),  // 11-byte varint
      ([0x00, 0x01], .malformed),  // field number 0
      ([0x0E, 0x00], .malformed),  // wire type 6
      ([0x0F, 0x00], .malformed),  // wire type 7
      ([0x0A, 0x05, 0x01], .truncated),  // length past the end
      ([0x0A, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F], .truncated),  // a huge length
      ([0x09, 0x01, 0x02], .truncated),  // fixed64 cut
      ([0x0D, 0x01], .truncated),  // fixed32 cut
      ([0x0C], .malformed),  // end group without start
      ([0x0B, 0x08, 0x01], .truncated),  // group never closed
      ([0x0B, 0x14], .malformed),  // group closed by another field's end
    ] as [([UInt8], ForwardingError.Code)])
  func malformed(bytes: [UInt8], code: ForwardingError.Code) {
    var reader = ProtobufReader(bytes)
    #expect {
      while let (number, wireType) = try reader.nextField() {
        try reader.skip(wireType, field: number)
      }
    } throws: { error in
      (error as? ForwardingError)?.code == code
    }
  }

  @Test("nesting deeper than the limit is refused, for messages and for groups")
  func depthLimit() throws {
    // 100 nested messages, each field 1 holding the next.
    var bytes: [UInt8] = []
    for _ in 0..<100 { bytes = [0x0A] + Self.written { $0.varint(UInt64(bytes.count)) } + bytes }
    var reader = ProtobufReader(bytes)
    #expect {
      var current = reader
      while (try current.nextField()) != nil { current = try current.message() }
    } throws: { error in
      (error as? ForwardingError)?.code == .tooDeep
    }
    let groups = [UInt8](repeating: 0x0B, count: 100) + [UInt8](repeating: 0x0C, count: 100)
    reader = ProtobufReader(groups)
    #expect {
      while let (number, wireType) = try reader.nextField() {
        try reader.skip(wireType, field: number)
      }
    } throws: { error in
      (error as? ForwardingError)?.code == .tooDeep
    }
  }

  @Test("strings must be valid UTF-8")
  func invalidUTF8() {
    for bad: [UInt8] in [
      [0xFF], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82],
    ] {
      var reader = ProtobufReader([0x0A, UInt8(bad.count)] + bad)
      #expect {
        _ = try reader.nextField()
        _ = try reader.string()
      } throws: { error in
        (error as? ForwardingError)?.code == .invalidUTF8
      }
    }
    var good = ProtobufReader([0x0A, 0x07] + Array("é€ab".utf8))
    #expect((try? good.nextField()) != nil)
    #expect(throws: Never.self) { _ = try good.string() }
  }
}
