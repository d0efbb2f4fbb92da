#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The identity of the machine's current boot: 16 bytes that stay the same until the machine
/// restarts.
///
/// The metrics spool writes it into its live file. A reopened spool that finds the same
/// identity knows the kernel kept every store the previous process made (only the process
/// ended), so the file is exact; a different one means the machine restarted, and the file is
/// only what the kernel had written back by then (any page stale or torn), so the spool
/// continues from its journal's last synced samples instead.
///
/// Linux: `/proc/sys/kernel/random/boot_id`. Darwin: the `kern.bootsessionuuid` sysctl, else
/// `kern.boottime`. Where neither can be read, nil: the spool then always continues from its
/// journal.
enum MetricsBootIdentity {
  /// The current boot's identity, read once per process.
  static let current: [UInt8]? = read()

  private static func read() -> [UInt8]? {
    #if os(Linux)
      return readText("/proc/sys/kernel/random/boot_id").flatMap(hexBytes)
    #elseif canImport(Darwin)
      if let text = sysctlText("kern.bootsessionuuid"), let bytes = hexBytes(text) {
        return bytes
      }
      var boottime = timeval()
      var size = MemoryLayout<timeval>.size
      guard sysctlbyname("kern.boottime", &boottime, &size, nil, 0) == 0 else { return nil }
      var bytes: [UInt8] = []
      withUnsafeBytes(of: Int64(boottime.tv_sec).littleEndian) { bytes.append(contentsOf: $0) }
      withUnsafeBytes(of: Int64(boottime.tv_usec).littleEndian) { bytes.append(contentsOf: $0) }
      return bytes
    #else
      return nil
    #endif
  }

  /// The first 16 bytes spelled by the hexadecimal digits of `text` (other characters, such as
  /// a UUID's dashes, skipped); nil if it has fewer than 32 digits.
  static func hexBytes(_ text: String) -> [UInt8]? {
    var digits: [UInt8] = []
    for scalar in text.unicodeScalars {
      guard let digit = UInt8(String(scalar), radix: 16) else { continue }
      digits.append(digit)
      if digits.count == 32 { break }
    }
    guard digits.count == 32 else { return nil }
    return stride(from: 0, to: 32, by: 2).map { digits[$0] << 4 | digits[$0 + 1] }
  }

  #if os(Linux)
    /// The first bytes of a small file as text, or nil.
    private static func readText(_ path: String) -> String? {
      let descriptor = open(path, O_RDONLY | O_CLOEXEC)
      guard descriptor >= 0 else { return nil }
      defer { _ = close(descriptor) }
      var buffer = [UInt8](repeating: 0, count: 128)
      let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
      guard count > 0 else { return nil }
      return String(decoding: buffer[..<count], as: UTF8.self)
    }
  #elseif canImport(Darwin)
    /// A string sysctl, or nil.
    private static func sysctlText(_ name: String) -> String? {
      var size = 0
      guard sysctlbyname(name, nil, &size, nil, 0) == 0, size > 0 else { return nil }
      var buffer = [CChar](repeating: 0, count: size)
      guard sysctlbyname(name, &buffer, &size, nil, 0) == 0 else { return nil }
      return String(cString: buffer)
    }
  #endif
}
