/// The check after a cut: a copy of the cut's image is attached and mounted (the file system
/// replays its own journal), and the workload's `verify` runs on it in a process of its own,
/// like an app starting after the power came back.
package enum PowerCutCheck {
  /// How long the recovery process may run before it counts as hung.
  static let recoveryTimeoutSeconds = 300

  /// Checks `workload`'s directory `path` (relative to the file system's root) on a copy of
  /// `image` against the acknowledgement file at `acknowledgements`. The image itself is left
  /// as the cut made it.
  ///
  /// - Parameters:
  ///   - executable: The `stoic-powercut-workload` program, whose `verify` is run.
  ///   - scratch: Where the copy is made and mounted.
  /// - Returns: The verdict; a recovery process that crashed, hung or printed nothing is a
  ///   violation.
  /// - Throws: ``PowerCutError`` when the copy cannot be made, attached or mounted.
  package static func check(
    image: String, fileSystem: PowerCutFileSystem, workload: String, path: String,
    acknowledgements: String, executable: String, scratch: PowerCutScratch
  ) throws(PowerCutError) -> PowerCutVerdict {
    let copy = scratch.runDirectory + "/check.img"
    let mountPoint = scratch.runDirectory + "/check"
    let teardown = PowerCutTeardown()
    return try teardown.around { () throws(PowerCutError) -> PowerCutVerdict in
      try PowerCutHost.copyImage(image, to: copy)
      teardown.add("remove \(copy)") { () throws(PowerCutError) in try PowerCutHost.remove(copy) }
      let device = try PowerCutLoopDevice.attach(copy)
      teardown.add("detach \(device.device)") { () throws(PowerCutError) in try device.detach() }
      try device.mount(fileSystem, at: mountPoint, options: fileSystem.copyMountOptions)
      teardown.add("unmount \(mountPoint)") { () throws(PowerCutError) in
        try PowerCutLoopDevice.unmount(mountPoint)
      }
      let arguments = [
        "verify", "--workload", workload, "--directory", mountPoint + "/" + path, "--acks",
        acknowledgements,
      ]
      var verdict = PowerCutVerdict()
      do throws(PowerCutError) {
        let output = try PowerCutHost.run(
          executable, arguments, timeoutSeconds: recoveryTimeoutSeconds)
        verdict = PowerCutVerdict(text: output)
        verdict.require(
          !verdict.facts.isEmpty || !verdict.violations.isEmpty,
          "the recovery process printed no verdict")
      } catch {
        verdict.add("the recovery process failed: \(error)")
      }
      return verdict
    }
  }
}
