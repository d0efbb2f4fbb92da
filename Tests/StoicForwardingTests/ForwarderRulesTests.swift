import Testing

@testable import StoicForwarding

/// The forwarder's labelled rules (@F1–@F3, `ForwarderRules`): each check accepts what the
/// forwarder does and catches an input that breaks its rule.
@Suite("Forwarder rules @F1–@F3")
struct ForwarderRulesTests {
  static func logs(_ first: UInt64, _ last: UInt64) -> SpoolRange {
    SpoolRange(stream: .logs, first: first, last: last)
  }

  @Test("@F1: batches follow each other from the cursor, and the cursor stands past them")
  func formingInOrder() {
    let before: [SpoolStream: UInt64] = [.logs: 5, .metrics: 1]
    let formed = [Self.logs(5, 9), Self.logs(10, 12)]
    #expect(
      ForwarderRules.checkForming(before: before, formed: formed, after: [.logs: 13, .metrics: 1])
        == nil)
    // A gap between two batches.
    #expect(
      ForwarderRules.checkForming(
        before: before, formed: [Self.logs(5, 9), Self.logs(11, 12)],
        after: [.logs: 13, .metrics: 1])?.rule == "@F1")
    // A first batch that does not start at the cursor.
    #expect(
      ForwarderRules.checkForming(
        before: before, formed: [Self.logs(6, 9)], after: [.logs: 10, .metrics: 1])?.rule
        == "@F1")
    // A cursor left short of (or beyond) the batches recorded.
    #expect(
      ForwarderRules.checkForming(before: before, formed: formed, after: [.logs: 11, .metrics: 1])?
        .rule == "@F1")
    #expect(
      ForwarderRules.checkForming(before: before, formed: [], after: [.logs: 7, .metrics: 1])?
        .rule == "@F1")
  }

  @Test("@F2: a cursor never goes back")
  func cursorsNeverGoBack() {
    #expect(
      ForwarderRules.checkForming(
        before: [.logs: 5, .metrics: 3], formed: [], after: [.logs: 5, .metrics: 2])?.rule
        == "@F2")
  }

  @Test("@F3: a release stops below the cursor and below every batch still held")
  func releaseRules() {
    let held = [Self.logs(20, 29), SpoolRange(stream: .metrics, first: 3, last: 4)]
    #expect(ForwarderRules.checkRelease(.logs, through: 19, cursor: 40, held: held) == nil)
    #expect(ForwarderRules.checkRelease(.logs, through: 20, cursor: 40, held: held)?.rule == "@F3")
    #expect(ForwarderRules.checkRelease(.logs, through: 19, cursor: 19, held: [])?.rule == "@F3")
    // Another stream's batch holds nothing back.
    #expect(ForwarderRules.checkRelease(.metrics, through: 2, cursor: 9, held: held) == nil)
  }
}
