#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One fuzz target: a parser that meets outside bytes, and what must hold whatever the bytes.
struct FuzzTarget: Sendable {
  /// The name on the command line and of the corpus directory.
  let name: String
  /// One line: what is fuzzed and what is checked.
  let summary: String
  /// The largest input worth trying (libFuzzer's `-max_len`).
  let maxLength: Int
  /// Runs one input; a broken invariant stops the process through ``FuzzCheck``.
  let run: @Sendable ([UInt8]) -> Void
  /// The seed corpus: inputs made from files the library writes, torn and bit-flipped ones
  /// among them.
  let seeds: @Sendable () -> [[UInt8]]
}

/// Every target, by name.
enum FuzzTargets {
  /// The environment variable naming the target to run.
  static let variable = "STOIC_FUZZ_TARGET"

  static let all: [FuzzTarget] = [
    JournalDirectoryTarget.target,
    JournalStructuredTarget.target,
    AtomicFileTarget.envelope,
    AtomicFileTarget.directory,
    OutboxRecordTarget.target,
    OutboxSnapshotTarget.target,
    SettingsTarget.appOwned,
    SettingsTarget.handEdited,
    LogRecordTarget.target,
    MetricSampleTarget.target,
    MetricsLiveTarget.target,
    DropCountersTarget.target,
    HTTPRequestTarget.target,
    OTLPTarget.protobuf,
    OTLPTarget.json,
    GzipTarget.target,
    CommandLineTarget.target,
    QueryTimeTarget.target,
  ]

  static func named(_ name: String) -> FuzzTarget? {
    all.first { $0.name == name }
  }

  /// The target `STOIC_FUZZ_TARGET` names, read once.
  static let selected: FuzzTarget? = {
    guard let name = getenv(variable).map({ String(cString: $0) }) else { return nil }
    return named(name)
  }()
}
