/// The rules an outbox drain keeps as it moves entries from queued to in flight to delivered
/// or parked, labelled as the journal labels its segment rules: each checked by a function of
/// its own, asserted (`assert`: debug builds only, never in a release build) where the state it
/// covers changes, and tested by driving the check with a state that breaks it.
///
/// | label | rule | asserted in |
/// | --- | --- | --- |
/// | @D1 | A send starts only once its attempt is recorded: every entry of the unit is in flight. | `OutboxDrain.send(_:)` |
/// | @D2 | At most `window` units are in flight at once, each at most once. | `OutboxDrain.send(_:)` |
/// | @D3 | A delivered unit has left the outbox: once its acknowledgement is applied, none of its entries remains. | `OutboxDrain.received(_:for:)` |
/// | @D4 | A parked unit's entries all need attention, its reason their last error, in no batch. | `OutboxDrain.received(_:for:)` |
/// | @D5 | A drain finishes with nothing in flight and nothing waiting to be sent again. | `OutboxDrain.finish()` |
///
/// Every check is cheap: a pass over the entries of one unit, or a compare. The states they
/// cover are the drain's own decisions, never bytes read from disk: a replayed log that breaks
/// them is applied as it is (and an open puts entries in flight back in line).
enum OutboxRules {
  /// @D1: every entry of the unit about to be sent (`entries`) is in flight.
  static func attemptRecorded(_ entries: [StoredEntry]) -> Bool {
    entries.allSatisfy { $0.state == .inFlight }
  }

  /// @D2: the keys of the units in flight are at most `window` and all different.
  static func windowKept(_ keys: [String], window: Int) -> Bool {
    keys.count <= window && Set(keys).count == keys.count
  }

  /// @D3: nothing is left of a delivered unit once its acknowledgement is applied
  /// (`remaining`: the entries the ledger still holds under its key).
  static func deliveredLeft(_ remaining: [StoredEntry]) -> Bool { remaining.isEmpty }

  /// @D4: every entry of a parked unit needs attention, with `reason` as its last error and no
  /// batch.
  static func parkedNeedAttention(_ entries: [StoredEntry], reason: String) -> Bool {
    entries.allSatisfy {
      $0.state == .needsAttention && $0.lastError == reason && $0.batchKey == nil
    }
  }

  /// @D5: a finishing drain has `inFlight` units in flight and `retries` waiting: none of
  /// either.
  static func finishedIdle(inFlight: Int, retries: Int) -> Bool { inFlight == 0 && retries == 0 }
}
