import Foundation
import StoicTesting

/// How many cuts the suite makes, when, and where, from the environment, so the ordinary run
/// stays short and a long run is one variable away.
///
/// - `STOIC_POWERCUT_CUTS`: cuts per workload and file system (default 10).
/// - `STOIC_POWERCUT_SEED`: the base seed of every cut's moment and workload (decimal or
///   `0x` hexadecimal).
/// - `STOIC_POWERCUT_MAX_DELAY_MS`: the latest moment of a cut after the workload's first
///   claim (default 400 ms; each cut draws its moment from 0 up to this).
/// - `STOIC_POWERCUT_FILE_SYSTEMS`, `STOIC_POWERCUT_WORKLOADS`: comma-separated names to run
///   only some (default: all).
package struct PowerCutBudget: Sendable {
  /// Cuts per workload and file system.
  package var cuts = 10
  /// The base seed.
  package var seed: UInt64 = 0x5701C
  /// The latest moment of a cut after the first claim, in milliseconds.
  package var maxDelayMilliseconds = 400
  /// The file systems to cut, or nil for all.
  package var fileSystems: Set<String>?
  /// The workloads to cut, or nil for all.
  package var workloads: Set<String>?

  /// The default budget.
  package init() {}

  /// The budget the environment sets (values that do not parse are ignored).
  package static func fromEnvironment() -> PowerCutBudget {
    let environment = ProcessInfo.processInfo.environment
    var budget = PowerCutBudget()
    if let cuts = environment["STOIC_POWERCUT_CUTS"].flatMap(Int.init), cuts > 0 {
      budget.cuts = cuts
    }
    if let text = environment["STOIC_POWERCUT_SEED"] {
      let value =
        text.hasPrefix("0x") ? UInt64(text.dropFirst(2), radix: 16) : UInt64(text, radix: 10)
      if let value { budget.seed = value }
    }
    if let delay = environment["STOIC_POWERCUT_MAX_DELAY_MS"].flatMap(Int.init), delay >= 0 {
      budget.maxDelayMilliseconds = delay
    }
    budget.fileSystems = environment["STOIC_POWERCUT_FILE_SYSTEMS"].map(Self.names)
    budget.workloads = environment["STOIC_POWERCUT_WORKLOADS"].map(Self.names)
    return budget
  }

  /// Whether the budget includes `workload` on `fileSystem`.
  package func includes(_ fileSystem: PowerCutFileSystem, _ workload: String) -> Bool {
    (fileSystems?.contains(fileSystem.rawValue) ?? true) && (workloads?.contains(workload) ?? true)
  }

  /// The seed of cut `index` of `workload` on `fileSystem`.
  package func seed(_ fileSystem: PowerCutFileSystem, _ workload: String, cut index: Int)
    -> UInt64
  {
    let workloadNumber = PowerCutWorkloads.all.firstIndex { $0.name == workload } ?? -1
    let fileSystemNumber = PowerCutFileSystem.allCases.firstIndex(of: fileSystem) ?? -1
    return SplitMix64.mix(seed, fileSystemNumber, workloadNumber, index)
  }

  private static func names(_ text: String) -> Set<String> {
    Set(text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
  }
}
