import CBenchSystem
import Foundation
import Glibc

/// The machine a run measured: printed with every report and stored in the JSON.
struct Machine: Encodable {
  let cores: Int
  let kernel: String
  let filesystem: String
  let cpu: String
  let memoryBytes: UInt64
  let directory: String
  /// `/proc/loadavg` when the run started: other work on the machine skews every figure.
  let loadAverage: String

  enum CodingKeys: String, CodingKey {
    case cores, kernel, filesystem, cpu
    case memoryBytes = "memory_bytes"
    case directory
    case loadAverage = "load_average"
  }

  /// Probes the machine; `directory` is where the benchmark's files go (its file system type
  /// comes from `statfs`).
  static func probe(directory: String) -> Machine {
    Machine(
      cores: Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))),
      kernel: kernelRelease(),
      filesystem: fileSystemType(of: directory),
      cpu: cpuModel(),
      memoryBytes: UInt64(sysconf(Int32(_SC_PHYS_PAGES))) * UInt64(sysconf(Int32(_SC_PAGESIZE))),
      directory: directory, loadAverage: currentLoadAverage())
  }

  /// The 1, 5 and 15 minute load averages from `/proc/loadavg`.
  static func currentLoadAverage() -> String {
    guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else {
      return "unknown"
    }
    return text.split(separator: " ").prefix(3).joined(separator: " ")
  }

  private static func kernelRelease() -> String {
    var names = utsname()
    uname(&names)
    let release = withUnsafeBytes(of: &names.release) { raw in
      String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
    }
    let system = withUnsafeBytes(of: &names.sysname) { raw in
      String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
    }
    return "\(system) \(release)"
  }

  private static let fileSystemNames: [Int: String] = [
    0xEF53: "ext4", 0x5846_5342: "xfs", 0x9123_683E: "btrfs", 0x0102_1994: "tmpfs",
    0x794C_7630: "overlayfs", 0x6969: "nfs", 0x2FC1_2FC1: "zfs", 0xF2F5_2010: "f2fs",
  ]

  private static func fileSystemType(of path: String) -> String {
    let type = stoic_bench_filesystem_type(path)
    guard type >= 0 else { return "unknown" }
    return fileSystemNames[type] ?? "0x" + String(type, radix: 16)
  }

  private static func cpuModel() -> String {
    guard let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) else {
      return "unknown"
    }
    for line in text.split(separator: "\n") where line.hasPrefix("model name") {
      if let colon = line.firstIndex(of: ":") {
        return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
      }
    }
    return "unknown"
  }
}
