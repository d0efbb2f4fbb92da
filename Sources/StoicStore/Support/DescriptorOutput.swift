#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writing to a descriptor the process does not own the fate of (standard output, standard
/// error): every byte, restarting after `EINTR` and short writes, stopping quietly on any other
/// error (a closed pipe), so output never fails its caller.
package enum DescriptorOutput {
  /// Writes every byte of `bytes` to `descriptor`, or as many as it takes.
  package static func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) {
    bytes.withUnsafeBytes { raw in
      guard let base = raw.baseAddress else { return }
      var offset = 0
      while offset < raw.count {
        let written = write(descriptor, base + offset, raw.count - offset)
        if written > 0 {
          offset += written
        } else if written < 0 && errno == EINTR {
          continue
        } else {
          return
        }
      }
    }
  }
}
