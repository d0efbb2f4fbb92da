import Foundation
import StoicStore
import Testing

/// A path that cannot be read is exit 2 with the system's reason, for every command that reads
/// a store: never 66 "not a store". The commands run as `nobody` when the tests run as root.
@Suite struct UnreadablePathTests {
  /// A spool at `scratch/spool` with a few log records, the scratch directory open to all.
  static func makeSpool(_ scratch: String) throws -> String {
    chmod(scratch, 0o755)
    let root = scratch + "/spool"
    _ = try QueryCommandTests.makeSpool(root, seed: 2, count: 20)
    return root
  }

  static let commands: [[String]] = [
    ["query"], ["tail"], ["tail", "-n", "3"], ["inspect"], ["verify"], ["compact"],
  ]

  static func expectUnreadable(_ command: [String], _ path: String) throws {
    let outcome = try StoicProcess.run(command + [path], unprivileged: true)
    #expect(outcome.status == 2, "\(command): \(outcome)")
    // verify and inspect give the reason in their report, the others on standard error.
    let said = outcome.output + outcome.error
    #expect(said.contains(String(cString: strerror(EACCES))), "\(command): \(outcome)")
    #expect(!said.contains("not a telemetry spool"), "\(command): \(outcome)")
  }

  @Test(arguments: commands)
  func aSpoolThatCannotBeListedIsExit2(_ command: [String]) throws {
    try StoicProcess.withScratch { scratch in
      let root = try Self.makeSpool(scratch)
      chmod(root, 0o300)
      defer { chmod(root, 0o755) }
      if getuid() == 0 { chown(root, 0, 0) }
      try Self.expectUnreadable(command, root)
    }
  }

  @Test(arguments: commands)
  func aSpoolWhoseLogsCannotBeReadIsExit2(_ command: [String]) throws {
    try Self.withUnreadableLogs { root in try Self.expectUnreadable(command, root) }
  }

  /// Runs `body` on a spool whose `logs/` others may not list.
  static func withUnreadableLogs(_ body: (String) throws -> Void) throws {
    try StoicProcess.withScratch { scratch in
      let root = try makeSpool(scratch)
      chmod(root, 0o755)
      chmod(root + "/logs", 0o300)
      defer { chmod(root + "/logs", 0o700) }
      try body(root)
    }
  }

  /// `drain` too: a spool it may not look into is exit 2, never 66 "not a telemetry spool".
  @Test(arguments: [0o600, 0o000])
  func aSpoolDrainCannotLookIntoIsExit2(_ mode: Int) throws {
    try StoicProcess.withScratch { scratch in
      let root = try Self.makeSpool(scratch)
      chmod(root, mode_t(mode))
      defer { chmod(root, 0o755) }
      if getuid() == 0 { chown(root, 0, 0) }
      try Self.expectUnreadable(["drain", "--to", "http://127.0.0.1:9"], root)
    }
  }

  @Test(arguments: [["query"], ["tail"]])
  func aLogsDirectoryThatCannotBeListedIsExit2(_ command: [String]) throws {
    try Self.withUnreadableLogs { root in try Self.expectUnreadable(command, root + "/logs") }
  }
}
