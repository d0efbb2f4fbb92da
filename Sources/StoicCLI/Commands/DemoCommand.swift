import StoicStore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `stoic demo`: forwarding end to end, in one process: a spool written while the example
/// collector is down, forwarded once it is up through a crash of the sender and a lost answer,
/// then compared record by record with what the collector holds. The last line is
/// `demo: written=W delivered=D duplicates_suppressed=S lost=L`.
struct DemoCommand: StoicCommand {
  static let spec = CommandSpec(
    name: "demo",
    summary:
      "Forward logs and metrics to the example collector on loopback through an outage, a "
      + "crash of the sender and a lost answer, and count what arrived.",
    options: [
      .value(
        "directory", valueName: "DIR",
        help: "Where the spool and the collector's data go (created if missing); a new "
          + "temporary directory by default.")
    ],
    details: """
      The collector runs in this process on an ephemeral port of 127.0.0.1. The last line is
      demo: written=W delivered=D duplicates_suppressed=S lost=L, where L is counted by
      comparing each record written with what the collector holds.

      exit status: 0 every record delivered exactly once, 1 a record lost or duplicated, or an
      error (printed), 64 usage.
      """)

  @MainActor
  static func run(_ command: ParsedCommand, console: Console) async throws -> ExitStatus {
    let folder: String
    do throws(StoreError) {
      if let directory = command.value("directory") {
        folder = directory
        try PosixFileSystem().createDirectory(folder)
      } else {
        folder = try makeTemporaryDirectory()
      }
    } catch {
      console.error("stoic demo: \(error)")
      return .damage
    }
    let demo = ForwardingDemo(directory: folder) { text in
      console.line(text)
      console.flush()
    }
    let outcome: ForwardingDemo.Outcome
    do {
      outcome = try await demo.run()
    } catch {
      console.error("stoic demo: \(error)")
      return .damage
    }
    console.line(
      "demo: written=\(outcome.written) delivered=\(outcome.delivered) "
        + "duplicates_suppressed=\(outcome.duplicatesSuppressed) lost=\(outcome.lost)")
    return outcome.lost == 0 && outcome.duplicatesAtCollector == 0 ? .success : .damage
  }

  private static func makeTemporaryDirectory() throws(StoreError) -> String {
    var template = Array("/tmp/stoic-demo-XXXXXX".utf8CString)
    let made = template.withUnsafeMutableBufferPointer { buffer -> String? in
      guard let base = buffer.baseAddress, mkdtemp(base) != nil else { return nil }
      return String(cString: base)
    }
    guard let made else {
      throw StoreError.system("mkdtemp", StoreErrno(rawValue: errno), path: "/tmp")
    }
    return made
  }
}
