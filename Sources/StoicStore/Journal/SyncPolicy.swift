/// When a ``Journal`` makes appended records durable (calls `sync` on its segment).
///
/// Whatever the policy, every append hands its bytes to the kernel (`pwrite`) before it
/// returns, so a record survives a crash of the process. The policy decides what survives a
/// crash of the machine (power loss, kernel panic): only records covered by a completed sync.
/// A single append can ask for more with `durable: true`.
public enum SyncPolicy: Sendable, Hashable {
  /// Every append returns only once its record is durable. Concurrent appenders that arrive
  /// while a sync is running share the next one.
  case always
  /// Group commit: every append returns only once its record is durable, and one appender (the
  /// leader) syncs for everyone waiting. Before it syncs, the leader gathers: when the last sync
  /// released more appenders than have gathered, it waits up to that sync's duration (and at
  /// most `maxDelay`) for them to come back with their next records; otherwise it waits while
  /// another appender has written and not yet started waiting, up to `maxDelay`. It stops
  /// gathering once `maxRecords` records are waiting.
  /// A lone appender never waits, and so gains nothing over ``always``: with one thread there is
  /// only ever one record outstanding, and each append pays its own flush. After its sync the leader hands over: one of the appenders
  /// still waiting leads the next sync, so the leader's own thread can append again and join
  /// it. With `maxDelay` zero nobody gathers, and a leader syncs again (up to four times) for
  /// those still waiting.
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
