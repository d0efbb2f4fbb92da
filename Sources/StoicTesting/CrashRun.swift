/// One recorded run of an operation under test: the disk at every crash point (index =
/// operations performed; 0 is the settled disk after setup) and what it acknowledged.
struct CrashRun {
  /// Why setup failed.
  struct SetupFailure: Error {
    let description: String
  }

  let snapshots: [DiskSnapshot]
  let acknowledgements: [CrashRecorder.Acknowledgement]
  let operationError: String?

  /// Runs `setup` on a fresh disk, settles it, then runs `operation`, recording the disk after
  /// every operation. What `operation` throws is kept in ``operationError``.
  static func record(
    setup: (SimulatedFileSystem) throws -> Void,
    operation: (SimulatedFileSystem, CrashRecorder) throws -> Void
  ) -> Result<CrashRun, SetupFailure> {
    let disk = SimulatedFileSystem()
    do {
      try setup(disk)
    } catch {
      return .failure(SetupFailure(description: "\(error)"))
    }
    disk.settle()
    disk.startRecording()
    let recorder = CrashRecorder(disk: disk)
    var operationError: String?
    do {
      try operation(disk, recorder)
    } catch {
      operationError = "\(error)"
    }
    return .success(
      CrashRun(
        snapshots: disk.stopRecording(), acknowledgements: recorder.acknowledgements,
        operationError: operationError))
  }
}
