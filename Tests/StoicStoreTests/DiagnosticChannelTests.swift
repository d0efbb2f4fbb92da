import StoicStore
import Testing

/// The diagnostic channel: warnings and errors as one escaped line each, the first of a kind at
/// once, the rest of that kind within the interval counted into the next line.
@Suite("DiagnosticChannel")
struct DiagnosticChannelTests {
  static let failed = EventDefinition(
    "test.failed", level: .warning, summary: "A test failure.", fields: ["path"])
  static let refused = EventDefinition(
    "test.refused", level: .error, summary: "Refused.", fields: ["status"],
    hint: "the receiver refused the credentials")
  static let routine = EventDefinition("test.routine", level: .info, summary: "Routine.")

  /// A channel whose clock the test moves, and the lines it wrote.
  final class Harness: Sendable {
    let lines = SleepingLock<[String]>([])
    let time = SleepingLock(ContinuousClock.now)
    var channel: DiagnosticChannel {
      DiagnosticChannel(
        prefix: "stoic", interval: .seconds(60),
        write: { [self] line in lines.withLock { $0.append(line) } },
        now: { [self] in time.withLock { $0 } })
    }
    func advance(_ duration: Duration) { time.withLock { $0 += duration } }
    var written: [String] { lines.withLock { $0 } }
  }

  @Test("one line per kind per interval, with the count of those it stood for")
  func rateLimitedPerKind() {
    let harness = Harness()
    let channel = harness.channel
    for _ in 0..<5 { channel.report(StoreEvent(Self.failed, [("path", "/a")])) }
    channel.report(StoreEvent(Self.refused, [("status", "401")]))
    #expect(
      harness.written == [
        "stoic: warning: test.failed path=/a\n",
        "stoic: error: the receiver refused the credentials (test.refused status=401)\n",
      ])
    harness.advance(.seconds(59))
    channel.report(StoreEvent(Self.failed, [("path", "/b")]))
    #expect(harness.written.count == 2)
    harness.advance(.seconds(1))
    channel.report(StoreEvent(Self.failed, [("path", "/c")]))
    #expect(
      harness.written.last
        == "stoic: warning: test.failed path=/c (and 5 more since the last line)\n")
    harness.advance(.seconds(60))
    channel.report(StoreEvent(Self.failed, [("path", "/d")]))
    #expect(harness.written.last == "stoic: warning: test.failed path=/d\n")
  }

  @Test("below the minimum level nothing is written")
  func belowTheLevel() {
    let harness = Harness()
    harness.channel.report(StoreEvent(Self.routine))
    #expect(harness.written.isEmpty)
  }

  @Test("a field's control characters and bidirectional controls are escaped: one line")
  func escaped() {
    let harness = Harness()
    harness.channel.sink.emit(Self.failed, [("path", "/x\n\u{1B}[2J\u{202E}y")])
    #expect(harness.written == ["stoic: warning: test.failed path=/x\\n\\x1b[2J\\u202ey\n"])
  }

  @Test("a sink joined with `and` reports to both, in order")
  func joined() {
    let harness = Harness()
    let seen = SleepingLock<[String]>([])
    let sink = harness.channel.sink.and(
      EventSink { event in seen.withLock { $0.append(event.name) } })
    sink.emit(Self.routine)
    sink.emit(Self.failed, [("path", "/a")])
    #expect(seen.withLock { $0 } == ["test.routine", "test.failed"])
    #expect(harness.written == ["stoic: warning: test.failed path=/a\n"])
  }
}
