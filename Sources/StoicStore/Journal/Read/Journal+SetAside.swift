extension Journal {
  /// A salvaging journal's answer to a sealed compressed `segment` whose ends a read found
  /// damaged, or not what its name records (``JournalCompressedEnds``), before it handed out
  /// any of its records: the segment is taken out of the list, then its file set aside whole as
  /// `<name>.corrupt-0` (or
  /// the next free quarantine name, never replacing one) and the directory synced, reported as
  /// an open reports it (``StoreEvents/journalCorruptionDetected``,
  /// ``StoreEvents/journalSalvaged``). Reads go on after it; the next open finds the records it
  /// held missing and, salvaging, accepts the segments after them.
  ///
  /// An open does not read a compressed segment whose name records what it needs, so damage in
  /// its ends is found by the first read that reaches it: there a salvaging journal sets it
  /// aside, as the open did when it checked every segment's ends. (A damaged block found after
  /// some of the segment's records were handed out is refused, not set aside: those records
  /// were read, and a later open must not lose them.) Under the maintenance lock, so no
  /// compression or drop changes the segments meanwhile; a segment a drop removed first is left
  /// alone.
  func setAsideDamaged(_ segment: JournalCore.Sealed) throws(StoreError) {
    try withMaintenancePaused { () throws(StoreError) in
      let listed = state.withLock { core -> JournalCore.Sealed? in
        guard let index = core.sealed.firstIndex(where: { $0.name == segment.name }) else {
          return nil
        }
        return core.sealed.remove(at: index)
      }
      guard let listed else { return }
      var report = JournalRecovery()
      try JournalOpener(
        directory: directory, fileSystem: fileSystem, options: options, events: events
      ).setAside(listed, report: &report)
    }
  }
}
