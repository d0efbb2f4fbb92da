public import StoicStore
import Synchronization

/// Collects the events the library raises while the tool runs it over an overlay.
public final class EventLog: Sendable {
  private let events = SleepingLock<[StoreEvent]>([])
  private let observer: (@Sendable (StoreEvent) -> Void)?

  /// An empty log; `observer`, if given, sees each event as it is raised (for progress).
  public init(observer: (@Sendable (StoreEvent) -> Void)? = nil) {
    self.observer = observer
  }

  /// The sink to hand the library.
  public var sink: EventSink {
    EventSink { [self] event in
      events.withLock { $0.append(event) }
      observer?(event)
    }
  }

  /// Every event so far, in order.
  public var all: [StoreEvent] {
    events.withLock { $0 }
  }

  /// The events of kind `definition`, in order.
  public func named(_ definition: EventDefinition) -> [StoreEvent] {
    all.filter { $0.name == definition.name }
  }
}
