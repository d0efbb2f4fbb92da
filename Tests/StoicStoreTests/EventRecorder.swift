import StoicStore

/// Collects the events a component emits, for assertions.
final class EventRecorder: Sendable {
  private let events = SleepingLock<[StoreEvent]>([])

  var sink: EventSink {
    EventSink { [self] event in self.events.withLock { $0.append(event) } }
  }

  var all: [StoreEvent] { events.withLock { $0 } }
  var names: [String] { all.map(\.name) }
}
