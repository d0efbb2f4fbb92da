import Foundation
import Testing

/// The `stoic` tool, run as a real process.
@Suite("stoic command line")
struct StoicCommandTests {
  struct Outcome {
    var status: Int32
    var output: String
    var error: String
  }

  /// The `stoic` executable next to the test bundle in the build directory.
  static var executable: URL {
    let testBinary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    var directory = testBinary.deletingLastPathComponent()
    while !FileManager.default.fileExists(atPath: directory.appendingPathComponent("stoic").path),
      directory.path != "/"
    {
      directory = directory.deletingLastPathComponent()
    }
    return directory.appendingPathComponent("stoic")
  }

  static func run(_ arguments: [String]) throws -> Outcome {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    let output = Pipe()
    let error = Pipe()
    process.standardOutput = output
    process.standardError = error
    try process.run()
    let outData = output.fileHandleForReading.readDataToEndOfFile()
    let errData = error.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Outcome(
      status: process.terminationStatus, output: String(decoding: outData, as: UTF8.self),
      error: String(decoding: errData, as: UTF8.self))
  }

  static func temporaryDirectory() throws -> String {
    let path = NSTemporaryDirectory() + "stoic-cli-test-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }

  @Test("demo writes, damages, quarantines and recovers on the real disk")
  func demo() throws {
    let directory = try Self.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let outcome = try Self.run(["demo", "--directory", directory])
    #expect(outcome.status == 0, "\(outcome.error)")
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

  @Test(
    "bad command lines are refused with a usage error and exit status 64",
    arguments: [["frobnicate"], ["demo", "--bogus"], ["demo", "--directory"]])
  func usageErrors(arguments: [String]) throws {
    let outcome = try Self.run(arguments)
    #expect(outcome.status == 64)
    #expect(outcome.error.contains("stoic: "))
    #expect(outcome.error.contains("Run 'stoic help' for usage."))
    #expect(outcome.output.isEmpty)
  }

  @Test("a directory that cannot be created is a typed error, exit status 1")
  func unwritableDirectory() throws {
    let outcome = try Self.run(["demo", "--directory", "/proc/stoic-cannot-exist"])
    #expect(outcome.status == 1)
    #expect(outcome.error.contains("StoreError"))
  }

  @Test("help and version succeed")
  func helpAndVersion() throws {
    let help = try Self.run(["help"])
    #expect(help.status == 0)
    #expect(help.output.contains("usage: stoic <command>"))
    let version = try Self.run(["--version"])
    #expect(version.status == 0)
    #expect(version.output.hasPrefix("stoic "))
  }
}
