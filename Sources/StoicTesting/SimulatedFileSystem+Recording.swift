extension SimulatedFileSystem {
  /// Starts remembering the disk after every operation; crash point 0 is the disk now.
  func startRecording() {
    state.withLock { state in state.recording = [state.disk] }
  }

  /// Stops recording and returns the disk at every crash point (index = operations since
  /// ``startRecording()``).
  func stopRecording() -> [DiskSnapshot] {
    state.withLock { state in
      let recording = state.recording ?? [state.disk]
      state.recording = nil
      return recording
    }
  }

  /// The crash point the disk is at now: operations since ``startRecording()``, or the
  /// operation count when not recording.
  var currentCrashPoint: Int {
    state.withLock { state in state.recording.map { $0.count - 1 } ?? state.operationCount }
  }
}
