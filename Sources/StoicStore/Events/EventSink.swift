/// Where a Stoic component reports its ``StoreEvent``s.
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

  /// The process's diagnostic channel (``DiagnosticChannel/standardError``): warnings and
  /// errors on standard error, one line per kind a minute at most.
  public static var standardError: EventSink { DiagnosticChannel.standardError.sink }

  /// A sink that reports every event to this sink, then to `other`.
  public func and(_ other: EventSink) -> EventSink {
    EventSink { event in
      self.emit(event)
      other.emit(event)
    }
  }

  /// Reports an event (for example one passed on from a layer below).
  public func emit(_ event: StoreEvent) {
    handler(event)
  }

  /// Raises an event of kind `definition` with `fields`: its name and level are the
  /// definition's.
  public func emit(_ definition: EventDefinition, _ fields: [(String, String)] = []) {
    handler(StoreEvent(definition, fields))
  }
}
