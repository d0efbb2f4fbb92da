/// Who syncs for whom when appenders wait for their records to be durable (group commit), as
/// a state machine with no threads, clocks or files: ``Journal`` drives it under its lock,
/// parks and wakes the threads it names, and runs the syncs it asks for.
///
/// The rules, under every sync policy (an append that waits, ``Journal/sync()``, and an
/// append with `durable: true` all arrive here):
/// - An appender whose record is already durable returns.
/// - With no leader, the arriving appender leads: it may first gather (see below), then syncs
///   up to the highest appended record, whoever appended it.
/// - With a leader, the appender waits. One that arrived before the leader read the end it
///   syncs is covered by that sync; one that arrives during the sync joins the next one.
/// - After a sync, the leader wakes the appenders it covered, and hands over: one appender still
///   waiting is woken to lead the next sync, unless an arriving appender leads first (then it
///   goes back to waiting). The leader's own thread returns at once, so it can append again and
///   join that next sync.
/// - Gathering: when the last sync released more appenders than are waiting now, the leader
///   waits for them to come back with their next records, until as many are waiting as it
///   released, or for at most that sync's duration (capped by ``gatherLimit``): otherwise the
///   appenders would split into two groups taking turns, each syncing half of them. A lone
///   appender never waits: the last sync released only itself.
/// - A leader stops gathering at once when ``maxRecords`` records are unsynced.
///
/// A waiter is signalled at most once before it resumes (``resume(_:)``), so a semaphore per
/// waiter never holds more than one signal.
struct JournalGroupCommit<Waiter> {
  /// What an appender does next.
  enum Step: Equatable {
    /// Its record is durable: return.
    case durable
    /// Sleep until signalled, then ``resume(_:)`` with this ticket.
    case wait(ticket: UInt64)
    /// Lead: gather for up to this long (``gathered()`` ends it early), then sync through the
    /// last appended record and report it with ``synced(through:duration:)``.
    case lead(gather: Duration)
    /// Not durable and the journal can no longer sync it (poisoned or closed).
    case failed
  }

  /// An appender waiting for a sync.
  struct Entry {
    let ticket: UInt64
    let sequence: UInt64
    let waiter: Waiter
    /// Signalled and not yet resumed.
    var signalled = false
  }

  /// Records up to this sequence are durable.
  var durableSequence: UInt64
  /// The longest a leader gathers (``SyncPolicy/groupCommit(maxDelay:maxRecords:)``'s delay);
  /// `nil`: at most the last sync's duration. Zero: never gathers.
  let gatherLimit: Duration?
  /// Unsynced records that end a gathering at once.
  let maxRecords: Int?
  /// A leader holds the sync (gathering, sealing or syncing).
  private(set) var leading = false
  /// The leader is gathering and has not been told to stop yet.
  private(set) var gathering = false
  private(set) var entries: [Entry] = []
  private var nextTicket: UInt64 = 0
  /// The appenders around the last sync: those it released (its leader included) and those
  /// left waiting. The next leader gathers until as many are waiting.
  private(set) var lastGroup = 1
  /// How long the last sync took: the longest a leader gathers (within ``gatherLimit``).
  private(set) var lastSyncDuration: Duration = .zero

  init(durableSequence: UInt64, gatherLimit: Duration?, maxRecords: Int?) {
    self.durableSequence = durableSequence
    self.gatherLimit = gatherLimit
    self.maxRecords = maxRecords
  }

  /// The gathering limit and record bound of a sync policy.
  init(durableSequence: UInt64, policy: SyncPolicy) {
    switch policy {
    case .groupCommit(let maxDelay, let maxRecords):
      self.init(
        durableSequence: durableSequence, gatherLimit: max(maxDelay, .zero),
        maxRecords: max(maxRecords, 1))
    default:
      self.init(durableSequence: durableSequence, gatherLimit: nil, maxRecords: nil)
    }
  }

  /// Appenders waiting, their signals in flight included.
  var waiting: Int { entries.count }

  /// An appender wants `sequence` durable, with `unsynced` records not yet synced. `waiter`
  /// is asked for only when it must wait. `wakeLeader` says the gathering leader has gathered
  /// enough and must be signalled now.
  mutating func arrive(
    _ sequence: UInt64, unsynced: Int, waiter: () -> Waiter
  ) -> (step: Step, wakeLeader: Bool) {
    if durableSequence >= sequence { return (.durable, false) }
    guard leading else { return (takeLead(), false) }
    let ticket = nextTicket
    nextTicket += 1
    entries.append(Entry(ticket: ticket, sequence: sequence, waiter: waiter()))
    var wake = false
    if gathering, 1 + entries.count >= lastGroup || maxRecords.map({ unsynced >= $0 }) == true {
      gathering = false
      wake = true
    }
    return (.wait(ticket: ticket), wake)
  }

  /// A waiter woke up. `usable` says the journal can still sync (not poisoned, not closed).
  mutating func resume(_ ticket: UInt64, usable: Bool) -> Step {
    guard let index = entries.firstIndex(where: { $0.ticket == ticket }) else {
      // Covered (or released by a failure) and removed while its signal was in flight.
      return .durable
    }
    entries[index].signalled = false
    if durableSequence >= entries[index].sequence {
      entries.remove(at: index)
      return .durable
    }
    guard usable else {
      entries.remove(at: index)
      return .failed
    }
    guard !leading else { return .wait(ticket: ticket) }
    entries.remove(at: index)
    return takeLead()
  }

  private mutating func takeLead() -> Step {
    leading = true
    guard lastGroup > 1, 1 + entries.count < lastGroup else { return .lead(gather: .zero) }
    let gather = gatherLimit.map { min($0, lastSyncDuration) } ?? lastSyncDuration
    guard gather > .zero else { return .lead(gather: .zero) }
    gathering = true
    return .lead(gather: gather)
  }

  /// The leader stops gathering (its wait ended, by a signal or by the time).
  mutating func gathered() {
    gathering = false
  }

  /// The leader's sync made every record up to `sequence` durable, in `duration`. Returns the
  /// waiters to signal: those covered, and one left waiting to lead the next sync.
  mutating func synced(through sequence: UInt64, duration: Duration) -> [Waiter] {
    durableSequence = max(durableSequence, sequence)
    lastSyncDuration = duration
    leading = false
    gathering = false
    var wake: [Waiter] = []
    var released = 1
    var left: [Entry] = []
    for entry in entries {
      if entry.sequence <= durableSequence {
        released += 1
        if !entry.signalled { wake.append(entry.waiter) }
      } else {
        left.append(entry)
      }
    }
    entries = left
    lastGroup = released + entries.count
    if !entries.contains(where: \.signalled), let next = entries.indices.first {
      entries[next].signalled = true
      wake.append(entries[next].waiter)
    }
    return wake
  }

  /// The leader could not sync (the journal is poisoned or closed). Returns every waiter not
  /// yet signalled: each resumes and fails, or finds its record durable.
  mutating func leaderFailed() -> [Waiter] {
    leading = false
    gathering = false
    return signalAll()
  }

  /// Every waiter not yet signalled, marked signalled (for a close, or a failure).
  mutating func signalAll() -> [Waiter] {
    var wake: [Waiter] = []
    for index in entries.indices where !entries[index].signalled {
      entries[index].signalled = true
      wake.append(entries[index].waiter)
    }
    return wake
  }
}
