import Foundation
import StoicTesting

/// One file system's image, made, attached and mounted with writeback held back, on which a
/// workload is cut again and again.
///
/// ``with(_:executable:packagePath:_:)`` takes the scratch lock (cleaning up what a dead run
/// left), makes the image (`mkfs` once), attaches it, mounts it, holds writeback back, runs
/// the body, and undoes all of it on every path. Each ``cut(_:index:seed:maxDelayMilliseconds:)``
/// runs the workload in a fresh directory of the mount.
package final class PowerCutSession {
  /// The file system.
  package let fileSystem: PowerCutFileSystem
  /// The lock and the folders of this run.
  package let scratch: PowerCutScratch
  /// The `stoic-powercut-workload` program.
  let executable: String
  /// The package's folder, for the replay command (`swift run --package-path`), if known.
  let packagePath: String?
  /// The image the workload runs on.
  let image: String
  /// Where it is mounted.
  let mountPoint: String
  /// Its loop device.
  let device: PowerCutLoopDevice

  private init(
    fileSystem: PowerCutFileSystem, scratch: PowerCutScratch, executable: String,
    packagePath: String?, image: String, mountPoint: String, device: PowerCutLoopDevice
  ) {
    self.fileSystem = fileSystem
    self.scratch = scratch
    self.executable = executable
    self.packagePath = packagePath
    self.image = image
    self.mountPoint = mountPoint
    self.device = device
  }

  /// Sets up `fileSystem`, runs `body`, and tears everything down whatever happens (see
  /// ``PowerCutSession``).
  ///
  /// - Parameters:
  ///   - executable: The `stoic-powercut-workload` program.
  ///   - packagePath: The package's folder, for replay commands.
  ///   - log: Receives what the leftover cleanup undid.
  /// - Throws: ``PowerCutError`` from any step, or from the teardown.
  package static func with<Result>(
    _ fileSystem: PowerCutFileSystem, executable: String, packagePath: String?,
    log: (String) -> Void = { _ in },
    _ body: (PowerCutSession) throws(PowerCutError) -> Result
  ) throws(PowerCutError) -> Result {
    let scratch = try PowerCutScratch.acquire()
    for line in scratch.cleaned { log("leftover of an earlier run: \(line)") }
    let teardown = PowerCutTeardown()
    return try teardown.around { () throws(PowerCutError) -> Result in
      let image = scratch.runDirectory + "/\(fileSystem).img"
      try makeImage(image, fileSystem)
      teardown.add("remove \(image)") { () throws(PowerCutError) in try PowerCutHost.remove(image) }
      let device = try PowerCutLoopDevice.attach(image)
      teardown.add("detach \(device.device)") { () throws(PowerCutError) in try device.detach() }
      let mountPoint = scratch.runDirectory + "/\(fileSystem)"
      try device.mount(fileSystem, at: mountPoint, options: fileSystem.workloadMountOptions)
      teardown.add("unmount \(mountPoint)") { () throws(PowerCutError) in
        try PowerCutLoopDevice.unmount(mountPoint)
      }
      let hold = try PowerCutWritebackHold.hold(
        savedAt: scratch.savedWriteback, lock: scratch.lockPath)
      teardown.add("restore writeback") { () throws(PowerCutError) in try hold.restore() }
      let session = PowerCutSession(
        fileSystem: fileSystem, scratch: scratch, executable: executable,
        packagePath: packagePath, image: image, mountPoint: mountPoint, device: device)
      return try body(session)
    }
  }

  /// Makes a sparse image of the file system's size and formats it.
  private static func makeImage(_ image: String, _ fileSystem: PowerCutFileSystem)
    throws(PowerCutError)
  {
    try PowerCutHost.writeText("", to: image)
    guard truncate(image, off_t(fileSystem.imageSize)) == 0 else {
      throw PowerCutError("cannot size \(image): errno \(errno)")
    }
    try PowerCutHost.run(fileSystem.mkfsTool, fileSystem.mkfsArguments + [image])
  }

  /// Cuts the power on `workload` once: starts it in the directory `cut-<index>` of the mount,
  /// waits for its first claim and then a moment drawn from `seed` (up to
  /// `maxDelayMilliseconds`), stops it, copies the image (the disk as the cut leaves it),
  /// kills it, and checks the copy (``PowerCutCheck``).
  ///
  /// A failing cut of real code keeps its image, acknowledgement file and the workload's output
  /// under ``PowerCutScratch/keptRoot``, and its outcome carries the command that checks it
  /// again. A control's cut is not kept: it is meant to lose.
  ///
  /// - Throws: ``PowerCutError`` when the workload fails or ends before the cut, or a step of
  ///   the cut fails.
  package func cut(
    _ workload: any PowerCutWorkload, index: Int, seed: UInt64, maxDelayMilliseconds: Int
  ) throws(PowerCutError) -> PowerCutOutcome {
    let name = "cut-\(index)"
    let run = scratch.runDirectory
    let acknowledgements = "\(run)/\(name).acks"
    let log = "\(run)/\(name).log"
    let cutImage = "\(run)/\(name).img"
    var random = SplitMix64(seed: seed)
    let delay = random.below(maxDelayMilliseconds + 1)
    try PowerCutHost.remove(acknowledgements)
    var clock = PowerCutStopwatch()
    let process = try PowerCutWorkloadProcess(
      executable: executable, workload: workload.name, directory: mountPoint + "/" + name,
      acknowledgements: acknowledgements, seed: seed, logPath: log)
    defer { process.killAndReap() }
    try waitForFirstClaim(process, acknowledgements)
    clock.lap("first claim")
    PowerCutHost.sleep(milliseconds: delay)
    guard process.isRunning else {
      throw PowerCutError("the workload \(workload.name) ended before the cut: \(process.ending)")
    }
    clock.lap("cut moment")
    try process.stop()
    try device.waitUntilIdle()
    clock.lap("stop")
    try PowerCutHost.copyImage(image, to: cutImage)
    clock.lap("copy")
    process.killAndReap()
    let claims = PowerCutAcknowledgements(path: acknowledgements).count
    let verdict = try PowerCutCheck.check(
      image: cutImage, fileSystem: fileSystem, workload: workload.name, path: name,
      acknowledgements: acknowledgements, executable: executable, scratch: scratch)
    clock.lap("check")
    // The workload's directory on the running file system is not needed any more.
    try PowerCutHost.remove(mountPoint + "/" + name)
    var kept: String?
    var replay: String?
    if !verdict.violations.isEmpty && !workload.isControl {
      let folder = try keep(
        workload: workload.name, index: index, seed: seed,
        files: [(cutImage, "image"), (acknowledgements, "acks"), (log, "workload.log")],
        verdict: verdict)
      kept = folder
      replay = replayCommand(workload: workload.name, path: name, folder: folder)
    }
    for file in [cutImage, acknowledgements, log] { try PowerCutHost.remove(file) }
    return PowerCutOutcome(
      index: index, seed: seed, delayMilliseconds: delay, claims: claims, verdict: verdict,
      kept: kept, replayCommand: replay, timings: clock.laps)
  }

  /// Waits (up to a minute) until the workload has claimed something.
  private func waitForFirstClaim(_ process: PowerCutWorkloadProcess, _ path: String)
    throws(PowerCutError)
  {
    var waited = 0
    while (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0 == 0 {
      guard process.isRunning else {
        throw PowerCutError("the workload ended before it claimed anything: \(process.ending)")
      }
      guard waited < 60_000 else {
        throw PowerCutError("the workload claimed nothing in a minute")
      }
      PowerCutHost.sleep(milliseconds: 1)
      waited += 1
    }
  }

  /// Moves a failing cut's files to a folder of their own under the kept root.
  private func keep(
    workload: String, index: Int, seed: UInt64, files: [(source: String, name: String)],
    verdict: PowerCutVerdict
  ) throws(PowerCutError) -> String {
    let folder =
      PowerCutScratch.keptRoot
      + "/\(fileSystem)-\(workload)-cut\(index)-seed\(String(seed, radix: 16))-\(getpid())"
    try PowerCutHost.remove(folder)
    try PowerCutHost.makeDirectory(folder)
    for (source, name) in files {
      do {
        try FileManager.default.moveItem(atPath: source, toPath: folder + "/" + name)
      } catch {
        throw PowerCutError("cannot keep \(source) in \(folder): \(error)")
      }
    }
    try PowerCutHost.writeText(verdict.text, to: folder + "/verdict")
    return folder
  }

  /// The command that checks a kept cut again.
  private func replayCommand(workload: String, path: String, folder: String) -> String {
    let program =
      packagePath.map { "swift run --package-path \($0) stoic-powercut-workload" } ?? executable
    return "\(program) replay --file-system \(fileSystem) --workload \(workload) --path \(path) "
      + "--image \(folder)/image --acks \(folder)/acks"
  }
}

/// Times the steps of a cut, for the log.
struct PowerCutStopwatch {
  private var last = ContinuousClock.now
  private var steps: [String] = []

  /// Ends a step named `name`.
  mutating func lap(_ name: String) {
    let now = ContinuousClock.now
    let elapsed = now - last
    let milliseconds =
      elapsed.components.seconds * 1000
      + elapsed.components.attoseconds / 1_000_000_000_000_000
    steps.append("\(name) \(milliseconds) ms")
    last = now
  }

  /// The steps so far: `first claim 120 ms, cut moment 230 ms, …`.
  var laps: String { steps.joined(separator: ", ") }
}

/// What one cut did and found.
package struct PowerCutOutcome: Sendable {
  /// The cut's number within its workload and file system.
  package let index: Int
  /// The seed of its moment and of the workload's choices.
  package let seed: UInt64
  /// How long after the workload's first claim the power was cut.
  package let delayMilliseconds: Int
  /// How many claims the workload had made by then.
  package let claims: Int
  /// What the check found.
  package let verdict: PowerCutVerdict
  /// Where the image and acknowledgement file were kept (a failing cut of real code).
  package let kept: String?
  /// The one command that checks the kept image again.
  package let replayCommand: String?
  /// How long each step took: `first claim 120 ms, cut moment 230 ms, …`.
  package let timings: String

  /// Whether a claim did not hold (for a control: whether it lost something, as it must).
  package var lost: Bool { !verdict.violations.isEmpty }

  /// One line for the log.
  package var summary: String {
    let seedText = "0x" + String(seed, radix: 16)
    let found = (verdict.violations.prefix(3) + verdict.facts).joined(separator: "; ")
    return "cut \(index) (seed \(seedText), \(delayMilliseconds) ms after the first claim, "
      + "\(claims) claims): \(found)"
  }
}
