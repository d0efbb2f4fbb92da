#if Tracing
  import StoicStore
  import StoicTelemetry
  public import Tracing

  /// A span of ``StoicTracer``: what is set on it is kept in memory (behind a lock) until
  /// ``end(at:)`` writes the whole span into the span spool, once; a second end does nothing.
  /// An unsampled span (``isRecording`` false) keeps and writes nothing.
  public final class StoicSpan: Tracing.Span, Sendable {
    /// The span's service context: the parent's, with this span's ``StoicSpanContext``.
    public let context: ServiceContext
    /// Whether the span is sampled: it keeps what is set on it and is written.
    public let isRecording: Bool
    let start: SpanStart
    let tracer: StoicTracer
    let state: SleepingLock<State>

    /// What is set on the span until it ends.
    struct State {
      var name: String
      var attributes = SpanAttributes()
      var events: [SpanEnd.Event] = []
      var droppedEvents: UInt32 = 0
      var links: [SpanEnd.Link] = []
      var droppedLinks: UInt32 = 0
      var status = SpanEnd.Status()
      var ended = false
    }

    init(start: SpanStart, context: ServiceContext, isRecording: Bool, tracer: StoicTracer) {
      self.start = start
      self.context = context
      self.isRecording = isRecording
      self.tracer = tracer
      state = SleepingLock(State(name: start.name))
    }

    /// The span's name (its operation), which may change until it ends.
    public var operationName: String {
      get { state.withLock { $0.name } }
      set { update { $0.name = newValue } }
    }

    /// The span's attributes, kept within ``StoicTracer/limits`` when it ends.
    public var attributes: SpanAttributes {
      get { state.withLock { $0.attributes } }
      set { update { $0.attributes = newValue } }
    }

    /// Sets the status: an error with its description, or ok (which stays once set, as the
    /// OpenTelemetry API says: a later error does not replace it).
    public func setStatus(_ status: SpanStatus) {
      update { state in
        guard state.status.code != .ok else { return }
        switch status.code {
        case .ok: state.status = SpanEnd.Status(code: .ok)
        case .error: state.status = SpanEnd.Status(code: .error, message: status.message ?? "")
        }
      }
    }

    /// Adds an event (at most `SpanLimits.eventCountLimit`; more are counted as dropped).
    public func addEvent(_ event: SpanEvent) {
      add(
        name: event.name, time: event.nanosecondsSinceEpoch,
        attributes: SpanAttributeConversion.values(of: event.attributes))
    }

    /// Records `error` as an `exception` event, as OpenTelemetry's semantic conventions name
    /// it: `exception.type` (the error's type), `exception.message` (its description), and
    /// `attributes`. The status is left as it is (set it to error if the error failed the
    /// span).
    public func recordError<Instant: TracerInstant>(
      _ error: any Error, attributes: SpanAttributes, at instant: @autoclosure () -> Instant
    ) {
      var values = SpanAttributeConversion.values(of: attributes)
      values["exception.type"] = .string(String(reflecting: type(of: error)))
      values["exception.message"] = .string(String(describing: error))
      add(name: "exception", time: instant().nanosecondsSinceEpoch, attributes: values)
    }

    /// Adds a link to the span in `link`'s context (at most `SpanLimits.linkCountLimit`);
    /// a context without a span is ignored.
    public func addLink(_ link: SpanLink) {
      guard let target = link.context.stoicSpanContext else { return }
      let limits = tracer.limits
      let (kept, dropped) = limits.limited(
        SpanAttributeConversion.values(of: link.attributes), to: limits.attributesPerLinkLimit)
      update { state in
        guard state.links.count < limits.linkCountLimit else {
          state.droppedLinks &+= 1
          return
        }
        state.links.append(
          SpanEnd.Link(
            traceID: target.traceID, spanID: target.spanID, traceState: target.traceState,
            traceFlags: target.traceFlags, attributes: kept, droppedAttributesCount: dropped))
      }
    }

    /// Ends the span at `instant`: the whole span is written into the span spool, once.
    public func end<Instant: TracerInstant>(at instant: @autoclosure () -> Instant) {
      guard isRecording else { return }
      let time = Int64(clamping: instant().nanosecondsSinceEpoch)
      let ended = state.withLock { state -> State? in
        guard !state.ended else { return nil }
        state.ended = true
        return state
      }
      guard let ended else { return }
      var start = start
      start.name = ended.name
      let limits = tracer.limits
      let (attributes, dropped) = limits.limited(
        SpanAttributeConversion.values(of: ended.attributes), to: limits.attributeCountLimit)
      tracer.spans.end(
        SpanEnd(
          start: start, endTimeNanoseconds: time, attributes: attributes,
          droppedAttributesCount: dropped, events: ended.events,
          droppedEventsCount: ended.droppedEvents, links: ended.links,
          droppedLinksCount: ended.droppedLinks, status: ended.status))
    }

    /// Adds an event within the limits.
    private func add(name: String, time: UInt64, attributes: SpanRecordAttributes) {
      let limits = tracer.limits
      let (kept, dropped) = limits.limited(attributes, to: limits.attributesPerEventLimit)
      update { state in
        guard state.events.count < limits.eventCountLimit else {
          state.droppedEvents &+= 1
          return
        }
        state.events.append(
          SpanEnd.Event(
            name: name, timeNanoseconds: Int64(clamping: time), attributes: kept,
            droppedAttributesCount: dropped))
      }
    }

    /// Changes the state of a recording span that has not ended.
    private func update(_ change: (inout State) -> Void) {
      guard isRecording else { return }
      state.withLock { state in
        guard !state.ended else { return }
        change(&state)
      }
    }
  }

  /// swift-distributed-tracing's attribute values as the span spool's.
  enum SpanAttributeConversion {
    static func values(of attributes: SpanAttributes) -> SpanRecordAttributes {
      var values = SpanRecordAttributes(minimumCapacity: attributes.count)
      // `SpanAttributes` is no `Sequence`: its `forEach` is the way through it.
      // swift-format-ignore: ReplaceForEachWithForLoop
      attributes.forEach { name, attribute in
        if let value = value(of: attribute) { values[name] = value }
      }
      return values
    }

    static func value(of attribute: SpanAttribute) -> SpanAttributeValue? {
      switch attribute {
      case .int32(let value): .int(Int64(value))
      case .int64(let value): .int(value)
      case .int32Array(let values): .array(values.map { .int(Int64($0)) })
      case .int64Array(let values): .array(values.map { .int($0) })
      case .double(let value): .double(value)
      case .doubleArray(let values): .array(values.map { .double($0) })
      case .bool(let value): .bool(value)
      case .boolArray(let values): .array(values.map { .bool($0) })
      case .string(let value): .string(value)
      case .stringArray(let values): .array(values.map { .string($0) })
      case .stringConvertible(let value): .string(value.description)
      case .stringConvertibleArray(let values): .array(values.map { .string($0.description) })
      default: nil
      }
    }
  }
#endif
