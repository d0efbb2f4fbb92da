import Foundation

/// `write_bytes` of `/proc/PID/io` (or `/proc/self/io`): the bytes a process caused to be sent
/// to storage, its dirtied mapped pages included.
public enum ProcessIO {
  /// The bytes process `pid` (this one when `nil`) caused to be written, if it can be read.
  public static func writeBytes(pid: Int32?) -> Int? {
    let path = "/proc/\(pid.map(String.init) ?? "self")/io"
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
    for line in text.split(separator: "\n") where line.hasPrefix("write_bytes:") {
      return Int(line.dropFirst("write_bytes:".count).trimmingCharacters(in: .whitespaces))
    }
    return nil
  }
}
