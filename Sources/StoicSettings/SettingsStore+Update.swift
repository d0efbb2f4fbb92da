public import StoicStore

extension SettingsStore {
  /// Changes the settings: validated, durable, then published.
  ///
  /// 1. `change` is applied to a copy of the current value. A copy equal to the current value
  ///    ends the update: nothing is written or published.
  /// 2. The copy is checked against the schema. If any field breaks it (a constraint, a value
  ///    JSON cannot hold, a document over the size limit), the update is refused with every
  ///    problem and nothing changes (`settings.rejected`).
  /// 3. The document is written sparsely (the format version, each field that differs from its
  ///    default, and preserved unknown keys) through AtomicFile: temporary file, full sync,
  ///    the current file kept as `<path>.previous`, rename, directory sync. A
  ///    ``SettingsFormat/handEdited`` file is rewritten as plain JSON, without its comments.
  /// 4. Only then is the value published to ``value``, Observation and ``changes()``
  ///    (`settings.saved`).
  ///
  /// Updates from any number of threads are serialised, so none is lost and each sees the one
  /// before it. `change` runs under the update lock: it must not call ``update(_:)``.
  ///
  /// - Parameter change: Edits the copy.
  /// - Throws: `StoreError`:
  ///   - `StoreError.Code.invalidArgument` when the result breaks the schema; its
  ///     `StoreError.settingsIssues` lists every problem.
  ///   - `StoreError.Code.unsupported` when the file was written by a newer format
  ///     (``SettingsIssue/readOnly(version:)``); the file is left exactly as it is.
  ///   - The write's error (`StoreError.Code.diskFull`, `StoreError.Code.io`, …)
  ///     (`settings.save_failed`). The value is unchanged, and so is the file, unless the
  ///     failure was the final directory sync, after which the new document may be in place
  ///     without being durable; the next successful update settles it.
  public func update(_ change: (inout Value) -> Void) throws(StoreError) {
    try writer.withLock { (state) throws(StoreError) in
      if let version = state.readOnlyVersion {
        throw refuse([.readOnly(version: version)], code: .unsupported)
      }
      var candidate = state.committed
      change(&candidate)
      guard candidate != state.committed else { return }

      let bytes: [UInt8]
      switch schema.encodeDocument(candidate, preserving: state.preserved) {
      case .failure(let refusal):
        throw refuse(refusal.issues, code: .invalidArgument)
      case .success(let encoded):
        bytes = encoded
      }
      guard bytes.count <= maxFileSize else {
        throw refuse([.tooLarge(bytes: bytes.count, limit: maxFileSize)], code: .invalidArgument)
      }

      do throws(StoreError) {
        try file.write(bytes, validate: schema.accepts(format: format))
      } catch {
        events.emit(
          SettingsEvents.saveFailed, [("path", path), ("error", error.description)])
        throw error
      }

      state.committed = candidate
      withMutation(keyPath: \.value) {
        published.withLock { $0 = candidate }
      }
      for subscriber in state.subscribers.values {
        subscriber.yield(candidate)
      }
      events.emit(
        SettingsEvents.saved, [("path", path)])
    }
  }

  /// Emits `settings.rejected` and builds the error that carries the issues.
  private func refuse(_ issues: [SettingsIssue], code: StoreError.Code) -> StoreError {
    let refusal = SettingsRefusal(issues: issues)
    events.emit(
      SettingsEvents.rejected, [("path", path), ("issues", refusal.description)])
    return StoreError(
      code, "settings update refused: \(refusal.description)", path: path, cause: refusal)
  }
}
