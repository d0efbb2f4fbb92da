import Foundation
import Testing

/// The `stoic` tool, run as a real process: the demo, help, version and usage errors.
@Suite("stoic command line")
struct StoicCommandTests {
  @Test("demo forwards through an outage, a crash and a lost answer, and loses nothing")
  func demo() throws {
    try StoicProcess.withScratch { directory in
      let outcome = try StoicProcess.run(["demo", "--directory", directory])
      #expect(outcome.status == 0, "\(outcome)")
      let last = try #require(outcome.output.split(separator: "\n").last.map(String.init))
      let fields = try Self.demoFields(last)
      #expect(fields["written"] == 750, "\(last)")
      #expect(fields["delivered"] == fields["written"], "\(last)")
      #expect(fields["lost"] == 0, "\(last)")
      // The lost answer and the crash each make the collector suppress one replay at least.
      #expect((fields["duplicates_suppressed"] ?? 0) >= 2, "\(last)")
      #expect(outcome.output.contains("records delivered twice:  0"))
      #expect(outcome.output.contains("spool emptied:            true"))
      let names = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
      #expect(names == ["collector", "spool"])
    }
  }

  /// The counts of the demo's last line, which must be exactly
  /// `demo: written=W delivered=D duplicates_suppressed=S lost=L`.
  static func demoFields(_ line: String) throws -> [String: Int] {
    let parts = line.split(separator: " ")
    try #require(parts.count == 5 && parts[0] == "demo:", "\(line)")
    var fields: [String: Int] = [:]
    for part in parts.dropFirst() {
      let pair = part.split(separator: "=")
      try #require(pair.count == 2, "\(line)")
      fields[String(pair[0])] = Int(pair[1])
    }
    try #require(
      Array(fields.keys).sorted() == ["delivered", "duplicates_suppressed", "lost", "written"]
        && line.hasPrefix("demo: written="), "\(line)")
    return fields
  }

  @Test(
    "bad command lines print the usage to standard error and exit 64",
    arguments: [
      ["frobnicate"], ["--frobnicate"], ["demo", "--bogus"], ["demo", "--directory"],
      ["verify"], ["verify", "a", "b"], ["verify", "--json=yes", "x"],
      ["verify", "--as", "spool2", "x"],
      ["inspect", "--max-record-size", "lots", "x"], ["events", "--json", "--json"],
      ["help", "frobnicate"], ["version", "extra"], ["compact", "-x", "d"],
    ])
  func usageErrors(arguments: [String]) throws {
    let outcome = try StoicProcess.run(arguments)
    #expect(outcome.status == 64, "\(outcome)")
    #expect(outcome.error.hasPrefix("stoic: "))
    #expect(outcome.error.contains("usage: stoic "))
    #expect(outcome.error.contains("Run 'stoic help"))
    #expect(outcome.output.isEmpty)
  }

  @Test("a command's usage error shows that command's options")
  func commandUsage() throws {
    let outcome = try StoicProcess.run(["verify", "--bogus", "x"])
    #expect(outcome.status == 64)
    #expect(outcome.error.contains("unknown option '--bogus' for 'verify'"))
    #expect(outcome.error.contains("usage: stoic verify [options] PATH"))
    #expect(outcome.error.contains("--max-record-size BYTES"))
    #expect(outcome.error.contains("Run 'stoic help verify' for usage."))
  }

  @Test("a directory that cannot be created is a typed error, exit status 1")
  func unwritableDirectory() throws {
    let outcome = try StoicProcess.run(["demo", "--directory", "/proc/stoic-cannot-exist"])
    #expect(outcome.status == 1)
    #expect(outcome.error.contains("StoreError"))
  }

  @Test("help lists every command and the exit statuses; version prints the version")
  func helpAndVersion() throws {
    for arguments in [[], ["help"], ["--help"], ["-h"]] {
      let help = try StoicProcess.run(arguments)
      #expect(help.status == 0)
      #expect(help.output.contains("usage: stoic <command>"))
      for command in [
        "inspect PATH", "verify PATH", "compact DIR", "events", "drain DIR", "demo",
        "help [COMMAND]",
      ] {
        #expect(help.output.contains("  \(command) "), "\(command) in \(help.output)")
      }
      for status in ["0", "1", "2", "64", "66", "69"] {
        #expect(help.output.contains("\n  \(status.count == 1 ? " " : "")\(status)  "))
      }
    }
    for arguments in [["--version"], ["version"]] {
      let version = try StoicProcess.run(arguments)
      #expect(version.status == 0)
      #expect(version.output == "stoic 0.1.0\n")
    }
  }

  @Test(
    "help COMMAND and COMMAND --help show the command's arguments, options and exit statuses",
    arguments: ["inspect", "verify", "compact", "events", "drain", "demo"])
  func commandHelp(command: String) throws {
    let viaHelp = try StoicProcess.run(["help", command])
    let viaFlag = try StoicProcess.run([command, "--help"])
    let viaShortFlag = try StoicProcess.run([command, "-h"])
    #expect(viaHelp.status == 0)
    #expect(viaHelp.output == viaFlag.output)
    #expect(viaHelp.output == viaShortFlag.output)
    #expect(viaHelp.output.contains("usage: stoic \(command)"))
    #expect(viaHelp.output.contains("-h, --help"))
    #expect(viaHelp.output.contains("exit status:"))
  }

  @Test(
    "a path that does not exist or is not a Stoic store: one line, exit 66",
    arguments: [
      "verify", "inspect", "compact",
    ])
  func noStore(command: String) throws {
    try StoicProcess.withScratch { scratch in
      let plain = scratch + "/notes.txt"
      try Data("just text".utf8).write(to: URL(fileURLWithPath: plain))
      let empty = scratch + "/empty"
      try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
      let journal = scratch + "/journal"
      try StoreFixtures.journal(journal, records: 3)
      let segment = try StoreFixtures.activeSegment(journal)
      let cases: [([String], String)] = [
        ([scratch + "/missing"], "no such file or directory"),
        ([plain], "not a Stoic store"),
        ([empty], "not a Stoic store"),
        ([segment], "is a file of the journal in"),
        (["--as", "atomic-file", journal], "is a directory, not an atomic file"),
        (["--as", "journal", plain], "is a file, not a journal directory"),
      ]
      let before = try StoreFixtures.fingerprint(scratch)
      for (arguments, message) in cases {
        let outcome = try StoicProcess.run([command] + arguments)
        #expect(outcome.status == 66, "\(arguments): \(outcome)")
        #expect(outcome.error.contains(message), "\(arguments): \(outcome)")
        #expect(outcome.error.split(separator: "\n").count == 1, "one line: \(outcome.error)")
        #expect(outcome.output.isEmpty)
      }
      #expect(try StoreFixtures.fingerprint(scratch) == before, "bad input changed nothing")
    }
  }
}
