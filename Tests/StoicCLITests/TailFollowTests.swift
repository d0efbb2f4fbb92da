import Foundation
import Testing

/// `stoic tail -f` follows a spool that another process owns and writes: it never takes the
/// spool's lock (the writer keeps logging), and prints every record logged, in order, once.
@Suite struct TailFollowTests {
  /// `stoic-telemetry-child`, built beside `stoic`.
  static var childExecutable: URL {
    StoicProcess.executable.deletingLastPathComponent().appendingPathComponent(
      "stoic-telemetry-child")
  }

  /// Starts `stoic-telemetry-child` logging into the spool at `root`, and waits (up to 10 s)
  /// until `ready` holds. With `pause` (microseconds) the child sleeps that long after each
  /// record.
  static func startWriter(_ root: String, pause: Int = 0, until ready: () -> Bool) throws
    -> Process
  {
    let writer = Process()
    writer.executableURL = childExecutable
    writer.arguments = [root, "1"] + (pause > 0 ? [String(pause)] : [])
    writer.standardOutput = FileHandle.nullDevice
    writer.standardError = FileHandle.nullDevice
    try writer.run()
    var polls = 0
    while !ready(), polls < 1000 {
      usleep(10_000)
      polls += 1
    }
    return writer
  }

  /// Kills a process started by the test and waits for it.
  static func stop(_ process: Process) {
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
  }

  @Test func followPrintsEveryRecordAnotherProcessLogs() throws {
    try StoicProcess.withScratch { scratch in
      let root = scratch + "/spool"
      let writer = try Self.startWriter(root) {
        FileManager.default.fileExists(atPath: root + "/logs")
      }
      defer { Self.stop(writer) }
      let outputPath = scratch + "/tail.out"
      _ = FileManager.default.createFile(atPath: outputPath, contents: nil)
      let output = try FileHandle(forWritingTo: URL(fileURLWithPath: outputPath))
      defer { try? output.close() }
      let tail = Process()
      tail.executableURL = StoicProcess.executable
      tail.arguments = ["tail", "-f", "-n", "3", "--json", root]
      tail.standardOutput = output
      tail.standardError = FileHandle.nullDevice
      try tail.run()
      // Let it follow for two seconds at least (eight polls or more) and 1000 records (a
      // loaded machine is slower), then stop the tail: what it printed is what is checked.
      var waited = 0
      while waited < 300 {
        usleep(200_000)
        waited += 1
        let printed = FileManager.default.contents(atPath: outputPath) ?? Data()
        if waited >= 10, printed.lazy.filter({ $0 == 0x0A }).count > 1000 { break }
      }
      #expect(tail.isRunning, "tail -f stopped")
      #expect(
        writer.isRunning,
        "the writer stopped (exit \(writer.isRunning ? 0 : writer.terminationStatus))")
      Self.stop(tail)
      let text = String(
        decoding: FileManager.default.contents(atPath: outputPath) ?? Data(), as: UTF8.self)
      // The last line may have been cut by the kill.
      let lines = text.split(separator: "\n").dropLast().compactMap {
        try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
      }
      #expect(lines.count > 1000, "tail -f showed \(lines.count) records")
      let sequences = lines.compactMap { ($0["spool_sequence"] as? NSNumber)?.uint64Value }
      #expect(sequences.count == lines.count)
      // Every record, in order, once: the sequences run without a gap or a repeat.
      let gaps = zip(sequences, sequences.dropFirst()).filter { $1 != $0 + 1 }
      #expect(gaps.isEmpty, "gaps or repeats: \(gaps.prefix(5))")
      let indices = lines.compactMap { line -> Int? in
        guard line["label"] as? String == "child", let message = line["message"] as? String else {
          return nil
        }
        return Int(message.split(separator: " ").last ?? "")
      }
      #expect(zip(indices, indices.dropFirst()).allSatisfy { $1 == $0 + 1 })
    }
  }
}
