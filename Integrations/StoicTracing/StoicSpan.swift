#if Tracing
  import StoicStore
  import StoicTelemetry
  public import Tracing

  /// A span of ``StoicTracer``: what is set on it is kept in memory (behind a lock) until
  /// ``end(at:)`` writes the whole span into the span spool, once; a second end does nothing.
  /// An unsampled span (``isRecording`` false) keeps and writes nothing.
  ///
  /// A span is a value with reference semantics, as swift-distributed-tracing's `Span` allows:
  /// every copy refers to one state, kept in one allocation with its lock (never held across a
  /// system call), which the span's `ServiceContext` also refers to for the span's identity.
  /// With the end handing the attributes to the spool as they are (`SpanAttributePairs`), a
  /// span allocates only what any recording tracer must: that state, and the storage of its
  /// context.
  public struct StoicSpan: Tracing.Span {
    /// The span's service context: the parent's, with this span's ``StoicSpanContext``.
    public let context: ServiceContext
    /// Whether the span is sampled: it keeps what is set on it and is written.
    public let isRecording: Bool
    /// The span's state, shared by every copy and by its context.
    let state: SleepingLock<State>

    /// The span as it started and what is set on it until it ends.
    struct State {
      /// Its start; the name may change until the end.
      var start: SpanStart
      /// The tracer that started it.
      let tracer: StoicTracer
      var attributes = SpanAttributes()
      var events: [SpanEnd.Event] = []
      var droppedEvents: UInt32 = 0
      var links: [SpanEnd.Link] = []
      var droppedLinks: UInt32 = 0
      var status = SpanEnd.Status()
      var ended = false

      /// The span's identity, as its context carries it.
      var spanContext: StoicSpanContext {
        StoicSpanContext(
          traceID: start.traceID, spanID: start.spanID, traceFlags: start.traceFlags,
          traceState: start.traceState)
      }
    }

    init(state: SleepingLock<State>, context: ServiceContext, isRecording: Bool) {
      self.state = state
      self.context = context
      self.isRecording = isRecording
    }

    /// The span's name (its operation), which may change until it ends.
    public var operationName: String {
      get { state.withLock { $0.start.name } }
      nonmutating set { update { $0.start.name = newValue } }
    }

    /// The span's attributes, kept within ``StoicTracer/limits`` when it ends.
    ///
    /// Changed in place: `span.attributes[key] = value` is one step under the span's lock, so
    /// attributes set from several tasks at once are all kept, and the dictionary the span
    /// holds is not copied for each one. A span that does not record, or has ended, ignores
    /// the change.
    public var attributes: SpanAttributes {
      get { state.withLock { $0.attributes } }
      nonmutating set { update { $0.attributes = newValue } }
      nonmutating _modify {
        guard isRecording else {
          var ignored = SpanAttributes()
          yield &ignored
          return
        }
        let locked = state.lock()
        defer { state.unlock() }
        if locked.pointee.ended {
          var ignored = locked.pointee.attributes
          yield &ignored
        } else {
          yield &locked.pointee.attributes
        }
      }
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
      let attributes = SpanAttributeConversion.values(of: link.attributes)
      update { state in
        let limits = state.tracer.limits
        guard state.links.count < limits.linkCountLimit else {
          state.droppedLinks &+= 1
          return
        }
        let (kept, dropped) = limits.limited(attributes, to: limits.attributesPerLinkLimit)
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
      let limits = ended.tracer.limits
      let attributes = SpanAttributeConversion.Pairs(ended.attributes)
      var end = SpanEnd(
        start: ended.start, endTimeNanoseconds: time, attributePairs: attributes,
        events: ended.events, droppedEventsCount: ended.droppedEvents, links: ended.links,
        droppedLinksCount: ended.droppedLinks, status: ended.status)
      // Within the limits (the usual case) the pairs are written as they are; past them, the
      // limits keep the same attributes they always keep.
      if attributes.pairCount > limits.attributeCountLimit
        || limits.attributeValueLengthLimit != nil
      {
        (end.attributes, end.droppedAttributesCount) = limits.limited(
          end.attributes, to: limits.attributeCountLimit)
      }
      ended.tracer.spans.end(end)
    }

    /// Adds an event within the limits.
    private func add(name: String, time: UInt64, attributes: SpanRecordAttributes) {
      update { state in
        let limits = state.tracer.limits
        guard state.events.count < limits.eventCountLimit else {
          state.droppedEvents &+= 1
          return
        }
        let (kept, dropped) = limits.limited(attributes, to: limits.attributesPerEventLimit)
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
    /// `SpanAttributes` as the spool's attribute pairs, walked where they are: those of a
    /// type the spool keeps (every one the API names), converted as they are walked.
    struct Pairs: SpanAttributePairs, Sendable {
      let attributes: SpanAttributes
      let pairCount: Int

      init(_ attributes: SpanAttributes) {
        self.attributes = attributes
        var count = 0
        // swift-format-ignore: ReplaceForEachWithForLoop
        attributes.forEach { _, attribute in
          if SpanAttributeConversion.value(of: attribute) != nil { count += 1 }
        }
        pairCount = count
      }

      func forEachPair(_ body: (String, SpanAttributeValue) -> Void) {
        // swift-format-ignore: ReplaceForEachWithForLoop
        attributes.forEach { name, attribute in
          if let value = SpanAttributeConversion.value(of: attribute) { body(name, value) }
        }
      }
    }

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
