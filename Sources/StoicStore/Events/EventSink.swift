/// Where a store component reports its ``StoreEvent``s.
///
/// A sink is a `@Sendable` closure called synchronously on the thread that raised the event;
/// it must not block and must not call back into the component that raised it.
public struct EventSink: Sendable {
  private let handler: @Sendable (StoreEvent) -> Void

  /// Creates a sink from a closure.
  public init(_ handler: @escaping @Sendable (StoreEvent) -> Void) {
    self.handler = handler
  }

  /// A sink that drops every event.
  public static let discard = EventSink { _ in }

  /// Reports an event.
  public func emit(_ event: StoreEvent) {
    handler(event)
  }

  /// Reports an event built from a name, a level and fields.
  public func emit(_ name: String, _ level: StoreEvent.Level, _ fields: [(String, String)] = []) {
    handler(StoreEvent(name, level: level, fields))
  }
}
