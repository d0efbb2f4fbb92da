import Foundation
import StoicStore
import Testing

/// A store held by a live process: the read-only commands read it without its lock (and name
/// the holder), the command that writes refuses with the holder's process id.
///
/// The test binary plays the holder: each test starts the same binary again, filtered to
/// itself, with `STOIC_CLI_HOLDER` naming the store; that child opens the journal (taking its
/// lock), says it is ready, and holds it (or appends to it) until the parent kills it.
@Suite("stores held by a live process")
struct LiveProcessTests {
  static let holderVariable = "STOIC_CLI_HOLDER"
  static let appendVariable = "STOIC_CLI_HOLDER_APPENDS"

  /// A child holding the journal in `directory`; killed by `stop()`.
  struct Holder {
    let process: Process

    var pid: Int32 { process.processIdentifier }

    func stop() {
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
    }
  }

  /// Starts the test binary again as a holder of `directory`, running only `test`, and waits
  /// until it holds the journal.
  static func startHolder(_ directory: String, test: String, appends: Bool) throws -> Holder {
    let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
    let child = Process()
    child.executableURL = URL(fileURLWithPath: executable)
    child.arguments = [
      "--testing-library", "swift-testing", "--filter", "LiveProcessTests/\(test)",
    ]
    var environment = ProcessInfo.processInfo.environment
    environment[holderVariable] = directory
    if appends { environment[appendVariable] = "1" }
    child.environment = environment
    child.standardOutput = FileHandle.nullDevice
    child.standardError = FileHandle.nullDevice
    try child.run()
    let ready = directory + ".ready"
    var polls = 0
    while !FileManager.default.fileExists(atPath: ready), child.isRunning, polls < 3000 {
      usleep(10_000)
      polls += 1
    }
    guard FileManager.default.fileExists(atPath: ready) else {
      kill(child.processIdentifier, SIGKILL)
      child.waitUntilExit()
      throw StoreFixtures.SetupError(description: "the holder never became ready")
    }
    return Holder(process: child)
  }

  /// The child's part: open the journal, say so, then hold it (appending, if asked) until
  /// killed, or for two minutes at most.
  static func runHolder(_ directory: String) -> Never {
    let appends = ProcessInfo.processInfo.environment[appendVariable] != nil
    var options = JournalOptions(syncPolicy: .never, segmentSize: 8192)
    options.backgroundMaintenance = true
    guard
      let journal = try? Journal.open(
        directory: directory, fileSystem: PosixFileSystem(), options: options)
    else { exit(3) }
    if appends { _ = try? journal.append(StoreFixtures.payload(0)) }
    guard FileManager.default.createFile(atPath: directory + ".ready", contents: nil) else {
      exit(4)
    }
    let deadline = Date().addingTimeInterval(120)
    var next = 1
    while Date() < deadline {
      if appends {
        guard (try? journal.append(StoreFixtures.payload(next))) != nil else { exit(5) }
        next += 1
        // About 2 000 records a second: rolls and compressions all the time, and a journal
        // small enough to read quickly even on a slow build (under AddressSanitizer a faster
        // writer outgrew every look verify took).
        if next % 10 == 0 { usleep(5000) }
      } else {
        usleep(50_000)
      }
    }
    exit(0)
  }

  @Test(
    "held by an idle process: inspect names it, verify reads it, compact refuses; no byte changes")
  func heldStore() throws {
    if let directory = ProcessInfo.processInfo.environment[Self.holderVariable] {
      Self.runHolder(directory)
    }
    try StoicProcess.withScratch { scratch in
      let directory = scratch + "/j"
      try StoreFixtures.journal(directory)
      let holder = try Self.startHolder(directory, test: "heldStore", appends: false)
      defer { holder.stop() }
      let before = try StoreFixtures.fingerprint(scratch)

      let inspect = try StoicProcess.run(["inspect", directory])
      #expect(inspect.status == 0, "\(inspect)")
      #expect(inspect.output.contains("lock        locked by process \(holder.pid)"), "\(inspect)")
      let json = try StoicProcess.run(["inspect", "--json", directory])
      let document =
        try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any]
      let lock = document?["lock"] as? [String: Any]
      #expect(lock?["state"] as? String == "held")
      #expect(lock?["pid"] as? Int == Int(holder.pid))

      let verify = try StoicProcess.run(["verify", directory])
      #expect(verify.status == 0, "\(verify)")
      #expect(
        verify.output.contains("locked by process \(holder.pid): read as it was"), "\(verify)")

      let compact = try StoicProcess.run(["compact", directory])
      #expect(compact.status == 69, "\(compact)")
      #expect(compact.error.contains("is held by process \(holder.pid)"), "\(compact)")
      #expect(compact.error.split(separator: "\n").count == 1)
      #expect(try StoreFixtures.fingerprint(scratch) == before, "nothing changed")
    }
  }

  @Test("appended to by a live process: verify finds no damage, again and again")
  func appendingWriter() throws {
    if let directory = ProcessInfo.processInfo.environment[Self.holderVariable] {
      Self.runHolder(directory)
    }
    try StoicProcess.withScratch { scratch in
      let directory = scratch + "/j"
      let holder = try Self.startHolder(directory, test: "appendingWriter", appends: true)
      defer { holder.stop() }
      for _ in 0..<4 {
        let verify = try StoicProcess.run(["verify", directory])
        #expect(verify.status == 0, "\(verify)")
        let inspect = try StoicProcess.run(["inspect", directory])
        #expect(inspect.status == 0, "\(inspect)")
        #expect(inspect.output.contains("locked by process \(holder.pid)"))
        usleep(100_000)
      }
      let records = try #require(
        try StoicProcess.run(["verify", "--json", directory]).output.split(separator: "\n")
          .first { $0.contains("\"records\"") })
      #expect(!records.contains(": 0,"), "the writer was appending: \(records)")
    }
  }
}
