import StoicStore

/// Watches a load: remembers why the schema rejected a file, and turns the quarantine events
/// AtomicFile emits into ``SettingsIssue/quarantined(path:movedTo:problem:)`` issues carrying
/// that reason. Every event is passed on to the app's sink unchanged.
final class QuarantineRecorder: Sendable {
  private struct State {
    var pendingRejection: String?
    var issues: [SettingsIssue] = []
  }
  private let state = SleepingLock(State())
  private let downstream: EventSink

  init(forwardingTo downstream: EventSink) {
    self.downstream = downstream
  }

  /// The sink to give AtomicFile.
  var sink: EventSink {
    EventSink { [self] event in
      if event.definition == StoreEvents.corruptQuarantined {
        state.withLock { state in
          let problem = state.pendingRejection ?? event["reason"] ?? "unusable"
          state.pendingRejection = nil
          state.issues.append(
            .quarantined(
              path: event["path"] ?? "", movedTo: event["quarantinedAs"] ?? "", problem: problem))
        }
      }
      downstream.emit(event)
    }
  }

  /// Notes why the schema rejected the file AtomicFile is about to quarantine.
  func rejected(_ problem: String) {
    state.withLock { $0.pendingRejection = problem }
  }

  /// Notes that a file was accepted (so no stale rejection is attached to a later event).
  func accepted() {
    state.withLock { $0.pendingRejection = nil }
  }

  /// The quarantines seen so far.
  var issues: [SettingsIssue] {
    state.withLock { $0.issues }
  }
}
