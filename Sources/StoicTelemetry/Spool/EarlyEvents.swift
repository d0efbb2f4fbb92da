import StoicStore

/// Holds the events raised while a spool opens, before its log spool exists to write them.
final class EarlyEvents: Sendable {
  private let stored = SleepingLock<[StoreEvent]>([])

  /// A sink that keeps every event raised into it.
  var sink: EventSink {
    EventSink { [stored] event in stored.withLock { $0.append(event) } }
  }

  /// The events kept, in order.
  var events: [StoreEvent] { stored.withLock { $0 } }
}
