/// When a ``Journal`` makes appended records durable (calls `sync` on its segment).
///
/// Whatever the policy, every append hands its bytes to the kernel (`pwrite`) before it
/// returns, so a record survives a crash of the process. The policy decides what survives a
/// crash of the machine (power loss, kernel panic): only records covered by a completed sync.
/// A single append can ask for more with `durable: true`.
public enum SyncPolicy: Sendable, Hashable {
  /// Every append returns only once its record is durable. Concurrent appenders share syncs
  /// (group commit, as for every policy where appends wait): one appender leads a sync through
  /// the last appended record, those that wrote before it started are covered, those arriving
  /// during it join the next one. Before it syncs, the leader waits for the appenders the last
  /// sync released to come back with their next records, at most that sync's duration, so that
  /// every waiting appender shares the next sync. A lone appender never waits.
  case always
  /// Group commit with a bound on gathering: as ``always``, but the leader gathers at most
  /// `maxDelay` (and at most the last sync's duration), and stops gathering once `maxRecords`
  /// records are unsynced. With `maxDelay` zero nobody gathers: appenders arriving during a sync
  /// still share the next one. A lone appender never waits, and so gains nothing over
  /// ``always``: with one thread there is only ever one record outstanding, and each append pays
  /// its own flush. After its sync the leader hands over: one of the appenders still waiting
  /// leads the next sync, so the leader's own thread can append again and join it.
  case groupCommit(maxDelay: Duration, maxRecords: Int)
  /// A sync after every `n` appended records (the `n`-th append waits for it); records in
  /// between are in the kernel but not yet durable.
  case everyRecords(Int)
  /// A sync at most `interval` after an unsynced record was appended: appends never wait, a
  /// background flush syncs what is pending when the interval has passed.
  case interval(Duration)
  /// Only ``Journal/sync()``, ``Journal/close()`` and appends with `durable: true` sync.
  case never
}
