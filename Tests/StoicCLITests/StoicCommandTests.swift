import Foundation
import Testing

/// The `stoic` tool, run as a real process: the demo, help, version and usage errors.
@Suite("stoic command line")
struct StoicCommandTests {
  @Test("demo writes, damages, quarantines and recovers on the real disk")
  func demo() throws {
    try StoicProcess.withScratch { directory in
      let outcome = try StoicProcess.run(["demo", "--directory", directory])
      #expect(outcome.status == 0, "\(outcome)")
      #expect(outcome.output.contains("store.corrupt_quarantined"))
      #expect(outcome.output.contains("store.recovered_previous"))
      #expect(
        outcome.output.contains(
          #"read {"theme":"dark","syncInterval":60} from the previous generation"#))
      #expect(
        outcome.output.contains(#"read {"theme":"light","syncInterval":15} from the current file"#))
      let names = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
      #expect(names == ["settings.json", "settings.json.corrupt-1", "settings.json.previous"])
      let quarantined = try Data(
        contentsOf: URL(fileURLWithPath: directory + "/settings.json.corrupt-1"))
      #expect(quarantined.count == 55, "the damaged generation is kept whole")
    }
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
        "inspect PATH", "verify PATH", "compact DIR", "events", "demo", "help [COMMAND]",
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
    arguments: ["inspect", "verify", "compact", "events", "demo"])
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
