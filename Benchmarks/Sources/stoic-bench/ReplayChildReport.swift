/// What a replay child process measured, printed by it as one JSON line.
struct ReplayChildReport: Codable {
  /// Seconds of each timed open + full replay.
  let seconds: [Double]
  /// Payload bytes replayed per run.
  let payloadBytes: Int
  /// Records replayed per run.
  let records: Int
  /// The child's peak resident memory (`VmHWM`), in bytes.
  let peakRSSBytes: Int
  /// The largest read buffer the journal reported for its open scan.
  let peakBufferBytes: Int
}
