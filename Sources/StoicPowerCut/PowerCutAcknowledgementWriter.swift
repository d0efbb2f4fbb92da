#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Appends claims to an acknowledgement file, one `write(2)` per line (see
/// ``PowerCutAcknowledgements``). Safe to share between threads.
package final class PowerCutAcknowledgementWriter: Sendable {
  private let descriptor: Int32

  /// Opens (creating) the file at `path` for appending.
  package init(path: String) throws(PowerCutError) {
    descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else {
      throw PowerCutError("cannot open the acknowledgement file \(path): errno \(errno)")
    }
  }

  deinit { close(descriptor) }

  /// Appends `claim` as one line, after the call it describes has returned.
  package func claim(_ claim: PowerCutClaim) throws(PowerCutError) {
    let line = Array((claim.line + "\n").utf8)
    let written = line.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    guard written == line.count else {
      throw PowerCutError("cannot append to the acknowledgement file: errno \(errno)")
    }
  }
}
