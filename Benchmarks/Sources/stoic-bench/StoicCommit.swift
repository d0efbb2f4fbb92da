import Foundation

/// The Stoic commit the benchmark was built from: `git rev-parse HEAD` in the source checkout,
/// with `+dirty` when the work tree has uncommitted changes.
enum StoicCommit {
  static func current() -> String {
    let sourceDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    guard let head = git(["rev-parse", "HEAD"], in: sourceDirectory), !head.isEmpty else {
      return "unknown"
    }
    let status = git(["status", "--porcelain", "--untracked-files=no"], in: sourceDirectory)
    return status?.isEmpty == false ? head + "+dirty" : head
  }

  private static func git(_ arguments: [String], in directory: URL) -> String? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["git"] + arguments
    process.currentDirectoryURL = directory
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    do {
      try process.run()
    } catch {
      return nil
    }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { return nil }
    return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
  }
}
