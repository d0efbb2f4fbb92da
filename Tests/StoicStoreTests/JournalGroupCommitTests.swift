import Testing

@testable import StoicStore

/// The group commit's decisions, step by step, with no threads: each waiter is a name, and
/// the tests play the threads' parts in the orders that matter.
@Suite("Journal group commit: who syncs for whom")
struct JournalGroupCommitTests {
  typealias Machine = JournalGroupCommit<String>

  static func machine(gatherLimit: Duration? = nil, maxRecords: Int? = nil) -> Machine {
    Machine(durableSequence: 0, gatherLimit: gatherLimit, maxRecords: maxRecords)
  }

  /// The ticket of a wait step.
  static func ticket(_ step: Machine.Step) -> UInt64? {
    if case .wait(let ticket) = step { return ticket }
    return nil
  }

  @Test("a lone appender leads at once and never gathers")
  func loneAppender() {
    var machine = Self.machine()
    for sequence in UInt64(1)...3 {
      let (step, wake) = machine.arrive(sequence, unsynced: 1) { "A" }
      #expect(step == .lead(gather: .zero))
      #expect(!wake)
      #expect(machine.synced(through: sequence, duration: .milliseconds(1)).isEmpty)
    }
    #expect(machine.durableSequence == 3)
  }

  @Test("appenders arriving during a sync wait; it covers those that came before it started")
  func coveredAndNext() {
    var machine = Self.machine()
    #expect(machine.arrive(1, unsynced: 1) { "A" }.step == .lead(gather: .zero))
    // B wrote before A read the end it syncs (A syncs through 2); C after (3).
    let b = machine.arrive(2, unsynced: 2) { "B" }.step
    let c = machine.arrive(3, unsynced: 3) { "C" }.step
    #expect(Self.ticket(b) != nil && Self.ticket(c) != nil)
    // B is covered; C is handed the next sync.
    #expect(machine.synced(through: 2, duration: .milliseconds(1)) == ["B", "C"])
    #expect(machine.resume(Self.ticket(b)!, usable: true) == .durable)
    // The last sync released A and B, and C was waiting: C gathers them for up to that sync.
    #expect(machine.resume(Self.ticket(c)!, usable: true) == .lead(gather: .milliseconds(1)))
  }

  @Test("the leader gathers until as many appenders wait as the last sync released")
  func gathersTheLastGroup() {
    var machine = Self.machine()
    #expect(machine.arrive(1, unsynced: 1) { "A" }.step == .lead(gather: .zero))
    var tickets: [String: UInt64] = [:]
    for (offset, name) in ["B", "C", "D"].enumerated() {
      tickets[name] = Self.ticket(machine.arrive(UInt64(2 + offset), unsynced: 1) { name }.step)
    }
    // A's sync covered only its own record: B, C, D wait; B is handed the lead.
    #expect(machine.synced(through: 1, duration: .milliseconds(2)) == ["B"])
    #expect(
      machine.resume(tickets["B"]!, usable: true) == .lead(gather: .milliseconds(2)))
    // A comes back with its next record: four appenders are around, the last group's size.
    let back = machine.arrive(5, unsynced: 4) { "A" }
    #expect(Self.ticket(back.step) != nil)
    #expect(back.wakeLeader)
    machine.gathered()
    #expect(machine.synced(through: 5, duration: .milliseconds(2)).sorted() == ["A", "C", "D"])
    // Covered waiters leave at once; each finds its record durable when it runs.
    #expect(machine.waiting == 0)
    for name in ["C", "D"] { #expect(machine.resume(tickets[name]!, usable: true) == .durable) }
    #expect(machine.resume(Self.ticket(back.step)!, usable: true) == .durable)
    #expect(machine.lastGroup == 4)
  }

  @Test("a gathering leader is woken once maxRecords records are unsynced")
  func maxRecordsEndsTheGathering() {
    var machine = Self.machine(gatherLimit: .seconds(1), maxRecords: 3)
    _ = machine.arrive(1, unsynced: 1) { "A" }
    let b = Self.ticket(machine.arrive(2, unsynced: 2) { "B" }.step)!
    let c = Self.ticket(machine.arrive(3, unsynced: 3) { "C" }.step)!
    _ = machine.synced(through: 1, duration: .milliseconds(5))
    #expect(machine.resume(b, usable: true) == .lead(gather: .milliseconds(5)))
    // The group was three; two are around. Far from gathered, but the records bound is met.
    #expect(machine.arrive(4, unsynced: 3) { "A" }.wakeLeader)
    _ = c
  }

  @Test("the gathering is capped by maxDelay; zero never gathers")
  func gatherLimit() {
    for (limit, expected) in [
      (Duration?.some(.microseconds(100)), Duration.microseconds(100)),
      (.some(.zero), .zero), (nil, .milliseconds(3)),
    ] {
      var machine = Self.machine(gatherLimit: limit)
      _ = machine.arrive(1, unsynced: 1) { "A" }
      let b = Self.ticket(machine.arrive(2, unsynced: 2) { "B" }.step)!
      _ = machine.synced(through: 1, duration: .milliseconds(3))
      #expect(machine.resume(b, usable: true) == .lead(gather: expected))
    }
  }

  @Test("an arriving appender leads before the woken one, which goes back to waiting")
  func arrivalLeadsFirst() {
    var machine = Self.machine()
    _ = machine.arrive(1, unsynced: 1) { "A" }
    let b = Self.ticket(machine.arrive(2, unsynced: 2) { "B" }.step)!
    #expect(machine.synced(through: 1, duration: .milliseconds(1)) == ["B"])
    // A arrives with record 3 before B runs: it leads (B and A make the last group of two).
    #expect(machine.arrive(3, unsynced: 2) { "A" }.step == .lead(gather: .zero))
    #expect(machine.resume(b, usable: true) == .wait(ticket: b))
    // B is signalled once more only when A's sync covers it.
    #expect(machine.synced(through: 3, duration: .milliseconds(1)) == ["B"])
    #expect(machine.resume(b, usable: true) == .durable)
  }

  @Test("a waiter is never signalled twice before it resumes")
  func oneSignalInFlight() {
    var machine = Self.machine()
    _ = machine.arrive(1, unsynced: 1) { "A" }
    let b = Self.ticket(machine.arrive(2, unsynced: 2) { "B" }.step)!
    #expect(machine.synced(through: 1, duration: .milliseconds(1)) == ["B"])
    // B has not run yet; A leads again and its sync covers B: no second signal for B.
    _ = machine.arrive(3, unsynced: 2) { "A" }
    #expect(machine.synced(through: 3, duration: .milliseconds(1)).isEmpty)
    #expect(machine.resume(b, usable: true) == .durable)
    #expect(machine.waiting == 0)
  }

  @Test("a failed leader releases every waiter, which fails unless its record is durable")
  func leaderFailure() {
    var machine = Self.machine()
    _ = machine.arrive(1, unsynced: 1) { "A" }
    let b = Self.ticket(machine.arrive(2, unsynced: 2) { "B" }.step)!
    let c = Self.ticket(machine.arrive(3, unsynced: 3) { "C" }.step)!
    #expect(machine.leaderFailed() == ["B", "C"])
    #expect(!machine.leading)
    #expect(machine.leaderFailed().isEmpty)
    #expect(machine.resume(b, usable: false) == .failed)
    // A close made everything durable before it released C.
    machine.durableSequence = 3
    #expect(machine.resume(c, usable: false) == .durable)
  }

  @Test("every sync policy gathers: always, everyRecords and never without a cap")
  func policies() {
    for policy in [SyncPolicy.always, .everyRecords(10), .never, .interval(.seconds(1))] {
      let machine = JournalGroupCommit<String>(durableSequence: 7, policy: policy)
      #expect(machine.gatherLimit == nil)
      #expect(machine.maxRecords == nil)
      #expect(machine.durableSequence == 7)
    }
    let machine = JournalGroupCommit<String>(
      durableSequence: 0, policy: .groupCommit(maxDelay: .milliseconds(4), maxRecords: 9))
    #expect(machine.gatherLimit == .milliseconds(4))
    #expect(machine.maxRecords == 9)
  }
}
