import Foundation
import StoicPowerCut
import Testing

/// Power cuts on real kernel file systems: each workload runs on an ext4, xfs or btrfs image
/// mounted through a loop device with writeback held back, is stopped at a random moment, and
/// the image is copied: the copy is the disk as a power cut leaves it. The copy is mounted (the
/// file system replays its journal), the store is opened (the library's recovery), and every
/// claim the workload's calls made before the cut must hold.
///
/// The controls claim more than they synced and must lose something on the same images; if
/// they do not, writeback was not held back and the method proves nothing: the suite fails.
///
/// Needs root, loop devices, `losetup`, `mount` and the `mkfs` of each file system (installed
/// with `apt-get` when missing); skipped, with the reason, where they are missing. The cuts
/// per workload come from `STOIC_POWERCUT_CUTS` (10 by default); see `PowerCutBudget`.
@Suite("Power cuts on real kernel file systems", .serialized)
struct PowerCutTests {
  static let workloads = PowerCutWorkloads.all.map(\.name)

  @Test(
    "ext4 (commit=3600): every claim survives a power cut, the controls lose",
    .enabled(
      if: PowerCutFileSystem.ext4.missingRequirement == nil,
      "needs Linux, root, loop devices, losetup, mount and mkfs.ext4 (e2fsprogs)"),
    arguments: workloads)
  func ext4(workload: String) async throws {
    try await Self.cut(.ext4, workload)
  }

  @Test(
    "xfs: every claim survives a power cut, the controls lose",
    .enabled(
      if: PowerCutFileSystem.xfs.missingRequirement == nil,
      "needs Linux, root, loop devices, losetup, mount and mkfs.xfs (xfsprogs)"),
    arguments: workloads)
  func xfs(workload: String) async throws {
    try await Self.cut(.xfs, workload)
  }

  @Test(
    "btrfs (commit=3600): every claim survives a power cut, the controls lose",
    .enabled(
      if: PowerCutFileSystem.btrfs.missingRequirement == nil,
      "needs Linux, root, loop devices, losetup, mount and mkfs.btrfs (btrfs-progs)"),
    arguments: workloads)
  func btrfs(workload: String) async throws {
    try await Self.cut(.btrfs, workload)
  }

  @Test(
    "a failing cut keeps its image and claims, and its replay command finds the same loss",
    .enabled(
      if: PowerCutFileSystem.ext4.missingRequirement == nil,
      "needs Linux, root, loop devices, losetup, mount and mkfs.ext4 (e2fsprogs)"))
  func failingCutIsKeptAndReplays() async throws {
    let control = try #require(PowerCutWorkloads.named("control-unsynced-append"))
    let executable = PowerCutSupport.executable
    let packagePath = PowerCutSupport.packagePath
    // The control, presented as real code: its cut loses records, so it is kept.
    let outcome = try await PowerCutSupport.onOwnThread { () throws -> PowerCutOutcome in
      try PowerCutSession.with(.ext4, executable: executable, packagePath: packagePath) {
        (session) throws(PowerCutError) -> PowerCutOutcome in
        try session.cut(
          PresentedAsRealCode(control: control), index: 0, seed: 1, maxDelayMilliseconds: 50)
      }
    }
    let kept = try #require(outcome.kept, "\(outcome.summary)")
    defer { try? FileManager.default.removeItem(atPath: kept) }
    for file in ["image", "acks", "workload.log", "verdict"] {
      #expect(FileManager.default.fileExists(atPath: kept + "/" + file), "\(file)")
    }
    let replay = try #require(outcome.replayCommand)
    let program = "swift run --package-path \(packagePath) stoic-powercut-workload "
    #expect(replay.hasPrefix(program), "\(replay)")
    // The command's arguments, given to the program this build made.
    let arguments = replay.dropFirst(program.count).split(separator: " ").map(String.init)
    let replayed = try await PowerCutSupport.onOwnThread { () throws -> String in
      do throws(PowerCutError) {
        _ = try PowerCutHost.run(executable, arguments)
        return "replay passed"
      } catch {
        return error.description
      }
    }
    #expect(replayed.contains("exited with status 1"), "\(replayed)")
    let first = try #require(outcome.verdict.violations.first)
    #expect(replayed.contains(first), "\(replayed)")
  }

  @Test(
    "what a dead run left is undone by the next: mounts, loop devices, held writeback",
    .enabled(
      if: PowerCutFileSystem.ext4.missingRequirement == nil,
      "needs Linux, root, loop devices, losetup, mount and mkfs.ext4 (e2fsprogs)"))
  func leftoversAreCleanedUp() async throws {
    let cleaned = try await PowerCutSupport.onOwnThread { () throws -> [String] in
      let mountPoint: String
      let device: PowerCutLoopDevice
      do {
        // A run that dies here: an image mounted, writeback held, nothing undone.
        let scratch = try PowerCutScratch.acquire()
        let image = scratch.runDirectory + "/dead.img"
        try PowerCutHost.writeText("", to: image)
        #expect(truncate(image, 64 << 20) == 0)
        try PowerCutHost.run("mkfs.ext4", ["-q", "-F", image])
        device = try PowerCutLoopDevice.attach(image)
        mountPoint = scratch.runDirectory + "/dead"
        try device.mount(.ext4, at: mountPoint, options: nil)
        // The values found are saved as a holding run saves them (here: the current ones).
        _ = try PowerCutWritebackHold.hold(
          savedAt: scratch.savedWriteback, lock: scratch.lockPath)
      }
      let next = try PowerCutScratch.acquire()
      #expect(!PowerCutScratch.mountPoints().contains(mountPoint))
      #expect(!PowerCutScratch.loopDevices().contains { $0.device == device.device })
      #expect(!FileManager.default.fileExists(atPath: next.savedWriteback))
      return next.cleaned
    }
    #expect(cleaned.contains { $0.hasPrefix("unmounted ") }, "\(cleaned)")
    #expect(cleaned.contains { $0.hasPrefix("detached ") }, "\(cleaned)")
    #expect(cleaned.filter { $0.hasPrefix("restored ") }.count == 2, "\(cleaned)")
    for setting in PowerCutWritebackHold.settings {
      let value = PowerCutHost.readText(setting.path)?.trimmingCharacters(
        in: .whitespacesAndNewlines)
      #expect(value != setting.held, "\(setting.path) is still held")
    }
  }

  /// A control presented as real code, so that its failing cut is kept like a real failure.
  struct PresentedAsRealCode: PowerCutWorkload {
    let control: any PowerCutWorkload
    var name: String { control.name }
    var summary: String { control.summary }
    var isControl: Bool { false }

    func run(
      directory: String, acknowledgements: PowerCutAcknowledgementWriter, seed: UInt64
    ) async throws {
      try await control.run(directory: directory, acknowledgements: acknowledgements, seed: seed)
    }

    func verify(directory: String, acknowledgements: PowerCutAcknowledgements) async
      -> PowerCutVerdict
    {
      await control.verify(directory: directory, acknowledgements: acknowledgements)
    }
  }

  /// Cuts `workloadName` on `fileSystem` as often as the budget says, and checks the outcomes.
  static func cut(_ fileSystem: PowerCutFileSystem, _ workloadName: String) async throws {
    let budget = PowerCutBudget.fromEnvironment()
    guard budget.includes(fileSystem, workloadName) else { return }
    let workload = try #require(PowerCutWorkloads.named(workloadName))
    let executable = PowerCutSupport.executable
    let packagePath = PowerCutSupport.packagePath
    let started = ContinuousClock.now
    let outcomes = try await PowerCutSupport.onOwnThread { () throws -> [PowerCutOutcome] in
      try PowerCutSession.with(
        fileSystem, executable: executable, packagePath: packagePath,
        log: { print("power cut \(fileSystem): \($0)") }
      ) { (session) throws(PowerCutError) -> [PowerCutOutcome] in
        var outcomes: [PowerCutOutcome] = []
        for index in 0..<budget.cuts {
          outcomes.append(
            try session.cut(
              workload, index: index, seed: budget.seed(fileSystem, workloadName, cut: index),
              maxDelayMilliseconds: budget.maxDelayMilliseconds))
        }
        return outcomes
      }
    }
    if ProcessInfo.processInfo.environment["STOIC_POWERCUT_VERBOSE"] != nil {
      for outcome in outcomes { print("  \(outcome.summary) [\(outcome.timings)]") }
    }
    let lost = outcomes.filter(\.lost)
    let claims = outcomes.map(\.claims).reduce(0, +)
    print(
      "power cut \(fileSystem) \(workloadName): \(outcomes.count) cuts, \(lost.count) with "
        + "losses, \(claims) claims checked, \(ContinuousClock.now - started)")
    if workload.isControl {
      #expect(
        !lost.isEmpty,
        """
        the control \(workloadName) lost nothing in \(outcomes.count) cuts on \(fileSystem): \
        writeback was not held back, so these cuts prove nothing
        """)
      for outcome in lost.prefix(3) { print("  control: \(outcome.summary)") }
    } else {
      for outcome in lost {
        Issue.record(
          """
          \(fileSystem) \(workloadName) \(outcome.summary)
          kept in \(outcome.kept ?? "?"); replay with:
          \(outcome.replayCommand ?? "?")
          """)
      }
    }
  }
}
