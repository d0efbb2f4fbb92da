internal import CStoicCRC32C

/// CRC32C (Castagnoli), the checksum of every envelope and journal frame.
///
/// Uses the CPU's CRC32 instruction where it has one (SSE4.2 on x86-64, the CRC extension on
/// arm64) and a table-driven implementation elsewhere; both give identical results, checked
/// against the published vectors (CRC32C("123456789") = 0xE3069283).
public enum CRC32C {
  /// The checksum of `bytes`, continuing from `crc` (pass the previous result to checksum data
  /// that arrives in pieces; start from 0).
  @inlinable
  public static func checksum(_ bytes: UnsafeRawBufferPointer, continuing crc: UInt32 = 0)
    -> UInt32
  {
    extend(crc, bytes)
  }

  /// The checksum of `bytes`, continuing from `crc`.
  public static func checksum(_ bytes: [UInt8], continuing crc: UInt32 = 0) -> UInt32 {
    bytes.withUnsafeBytes { extend(crc, $0) }
  }

  /// The checksum computed with the portable table, whatever the CPU has; for tests that check
  /// both paths agree.
  public static func portableChecksum(_ bytes: [UInt8], continuing crc: UInt32 = 0) -> UInt32 {
    bytes.withUnsafeBytes { stoic_crc32c_extend_portable(crc, $0.baseAddress, $0.count) }
  }

  /// Whether the hardware instruction is in use on this CPU.
  public static var isHardwareAccelerated: Bool { stoic_crc32c_is_hardware_accelerated() != 0 }

  @usableFromInline
  static func extend(_ crc: UInt32, _ bytes: UnsafeRawBufferPointer) -> UInt32 {
    stoic_crc32c_extend(crc, bytes.baseAddress, bytes.count)
  }
}
