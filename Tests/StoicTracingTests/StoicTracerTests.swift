// The tracer's tests run only with the `Tracing` trait: `swift test --traits Tracing`. A
// default build compiles nothing here.
#if Tracing
  import Dispatch
  import StoicStore
  import StoicTelemetry
  import StoicTesting
  import StoicTracing
  import Testing
  import Tracing

  /// The tracer over the span spool: parents and traces, what a span keeps and writes, the
  /// limits, errors as exception events, sampling, W3C propagation, and the span a crash cut
  /// short.
  @Suite("StoicTracer: swift-distributed-tracing into the span spool")
  struct StoicTracerTests {
    struct Failure: Error, CustomStringConvertible {
      var description: String { "the disk is on fire" }
    }

    /// A spool with spans on a simulated disk whose maintenance runs inline.
    static func spool(_ disk: SimulatedFileSystem) throws -> TelemetrySpool {
      let options = LogSpoolOptions(maxDelay: .seconds(3600), backgroundMaintenance: false)
      return try TelemetrySpool.open(
        at: "/spool", options: TelemetryOptions(logs: options, spans: options), fileSystem: disk)
    }

    static func ends(_ spool: TelemetrySpool) throws -> [SpanEnd] {
      var ends: [SpanEnd] = []
      try spool.spans?.forEachSpanRecord { (_, record) throws(StoreError) in
        if case .success(.end(let end)) = record { ends.append(end) }
      }
      return ends
    }

    struct Headers: Injector, Extractor {
      func inject(_ value: String, forKey key: String, into carrier: inout [String: String]) {
        carrier[key] = value
      }
      func extract(key: String, from carrier: [String: String]) -> String? { carrier[key] }
    }

    @Test(
      "a child span has its parent's trace and id; attributes, events, links and status are written at the end"
    )
    func parentAndChild() throws {
      let disk = SimulatedFileSystem()
      let spool = try Self.spool(disk)
      let tracer = try StoicTracer(spool: spool)
      let root = tracer.startSpan("request", context: .topLevel, ofKind: .server)
      let child = tracer.startSpan("query", context: root.context, ofKind: .client)
      child.attributes["db.system.name"] = "sqlite"
      child.attributes["rows"] = 3
      child.addEvent(SpanEvent(name: "cache miss", attributes: ["key": "user:1"]))
      child.addLink(SpanLink(context: root.context, attributes: ["why": "batch"]))
      child.recordError(Failure())
      child.setStatus(SpanStatus(code: .error, message: "failed"))
      child.end()
      child.end()
      root.operationName = "GET /users"
      root.end()
      let ends = try Self.ends(spool)
      #expect(ends.count == 2)
      let query = try #require(ends.first)
      let request = try #require(ends.last)
      #expect(request.start.name == "GET /users")
      #expect(request.start.kind == .server && query.start.kind == .client)
      #expect(request.start.parentSpanID == SpanID(0))
      #expect(query.start.traceID == request.start.traceID)
      #expect(query.start.parentSpanID == request.start.spanID)
      #expect(query.attributes == ["db.system.name": .string("sqlite"), "rows": .int(3)])
      #expect(query.events.map(\.name) == ["cache miss", "exception"])
      #expect(query.events.last?.attributes["exception.message"] == .string("the disk is on fire"))
      #expect(
        query.events.last?.attributes["exception.type"]
          == .string(String(reflecting: Failure.self)))
      #expect(query.links.first?.spanID == request.start.spanID)
      #expect(query.status == SpanEnd.Status(code: .error, message: "failed"))
      #expect(!query.isUnfinished && query.endTimeNanoseconds >= query.start.startTimeNanoseconds)
      try spool.close()
    }

    @Test(
      "attributes set from four threads at once are all kept; one set after the end changes nothing"
    )
    func attributesSetConcurrently() throws {
      let disk = SimulatedFileSystem()
      let spool = try Self.spool(disk)
      let tracer = try StoicTracer(spool: spool)
      // Through the API's existential, as `withSpan` hands a span to its operation.
      let span: any Span = tracer.startSpan("fan-out", context: .topLevel)
      DispatchQueue.concurrentPerform(iterations: 4) { thread in
        for index in 0..<500 { span.attributes["t\(thread).\(index)"] = index }
      }
      #expect(span.attributes.count == 2_000)
      span.end()
      span.attributes["late"] = "ignored"
      // The limit keeps 128 of them and counts the rest.
      let end = try #require(try Self.ends(spool).first)
      #expect(end.attributes.count == 128 && end.droppedAttributesCount == 1_872)
      #expect(end.attributes["late"] == nil && span.attributes["late"] == nil)
      try spool.close()
    }

    @Test("the limits keep the first attributes by key and count the rest; events and links too")
    func limits() throws {
      let disk = SimulatedFileSystem()
      let spool = try Self.spool(disk)
      let limits = SpanLimits(
        attributeCountLimit: 2, attributeValueLengthLimit: 3, eventCountLimit: 1,
        linkCountLimit: 0)
      let tracer = try StoicTracer(spool: spool, limits: limits)
      let span = tracer.startSpan("limited", context: .topLevel)
      span.attributes["c"] = "long value"
      span.attributes["a"] = "x"
      span.attributes["b"] = ["abcdef", "g"]
      span.addEvent("one")
      span.addEvent("two")
      span.addLink(SpanLink(context: span.context, attributes: [:]))
      span.end()
      let end = try #require(try Self.ends(spool).first)
      #expect(end.attributes == ["a": .string("x"), "b": .array([.string("abc"), .string("g")])])
      #expect(end.droppedAttributesCount == 1)
      #expect(end.events.map(\.name) == ["one"] && end.droppedEventsCount == 1)
      #expect(end.links.isEmpty && end.droppedLinksCount == 1)
      try spool.close()
    }

    @Test(
      "attributes changed in place keep every change, read back whole, and change nothing once the span ended"
    )
    func attributesChangedInPlace() throws {
      let disk = SimulatedFileSystem()
      let spool = try Self.spool(disk)
      let tracer = try StoicTracer(spool: spool)
      let span = tracer.startSpan("in place", context: .topLevel)
      span.attributes["a"] = 1
      span.attributes["b"] = "two"
      #expect(span.attributes["a"]?.toSpanAttribute() == .int64(1))
      span.attributes["a"] = nil
      span.attributes["c"] = span.attributes["b"]
      var whole = span.attributes
      whole["d"] = true
      span.attributes = whole
      span.end()
      span.attributes["late"] = "ignored"
      #expect(span.attributes["late"] == nil)
      let end = try #require(try Self.ends(spool).first)
      #expect(end.attributes == ["b": .string("two"), "c": .string("two"), "d": .bool(true)])
      try spool.close()
    }

    @Test(
      "a span is one state however it is copied: changes through any copy are kept, one end writes it once, its context names it"
    )
    func referenceSemantics() throws {
      let disk = SimulatedFileSystem()
      let spool = try Self.spool(disk)
      let tracer = try StoicTracer(spool: spool)
      let span = tracer.startSpan("first name", context: .topLevel)
      let copy = span
      let box: any Tracing.Span = span
      copy.attributes["from.copy"] = 1
      box.attributes["from.existential"] = 2
      span.operationName = "renamed"
      #expect(box.operationName == "renamed" && span.attributes["from.copy"] != nil)
      let identity = try #require(span.context.stoicSpanContext)
      #expect(identity == copy.context.stoicSpanContext)
      #expect(identity.isSampled && !identity.isRemote)
      // A context set on its own replaces the span's identity in that context only.
      var other = span.context
      other.stoicSpanContext = StoicSpanContext(
        traceID: TraceID(high: 7, low: 8), spanID: SpanID(9), traceFlags: 0, isRemote: true)
      #expect(other.stoicSpanContext?.spanID == SpanID(9))
      #expect(span.context.stoicSpanContext == identity)
      let child = tracer.startSpan("child", context: other)
      #expect(child.context.stoicSpanContext?.traceID == TraceID(high: 7, low: 8))
      copy.end()
      box.end()
      span.end()
      // The identity stays readable from the context once the span ended.
      #expect(span.context.stoicSpanContext == identity)
      let ends = try Self.ends(spool)
      #expect(ends.count == 1)
      #expect(ends.first?.start.name == "renamed")
      #expect(ends.first?.attributes == ["from.copy": .int(1), "from.existential": .int(2)])
      #expect(ends.first?.start.spanID == identity.spanID)
      try spool.close()
    }

    @Test("a span not sampled writes nothing and passes its trace on, unsampled")
    func unsampled() throws {
      let disk = SimulatedFileSystem()
      let spool = try Self.spool(disk)
      let tracer = try StoicTracer(spool: spool, sampler: .alwaysOff)
      let span = tracer.startSpan("dropped", context: .topLevel)
      let child = tracer.startSpan("child", context: span.context)
      #expect(!span.isRecording)
      #expect(child.context.stoicSpanContext?.traceID == span.context.stoicSpanContext?.traceID)
      #expect(child.context.stoicSpanContext?.isSampled == false)
      child.end()
      span.end()
      #expect(spool.spans?.lastSequence == 0)
      try spool.close()
    }

    @Test(
      "traceparent and tracestate go out and come back; a child of the remote span is in its trace")
    func propagation() throws {
      let disk = SimulatedFileSystem()
      let spool = try Self.spool(disk)
      let tracer = try StoicTracer(spool: spool)
      var carrier: [String: String] = [:]
      var incoming = ServiceContext.topLevel
      tracer.extract(
        [
          "traceparent": "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
          "tracestate": "congo=t61rcWkgMzE",
        ], into: &incoming, using: Headers())
      let remote = try #require(incoming.stoicSpanContext)
      #expect(remote.isRemote && remote.traceState == "congo=t61rcWkgMzE")
      let span = tracer.startSpan("handle", context: incoming, ofKind: .server)
      tracer.inject(span.context, into: &carrier, using: Headers())
      let sent = try #require(carrier["traceparent"].flatMap { TraceParent(header: $0) })
      #expect(sent.traceID == remote.traceID && sent.isSampled)
      #expect(sent.spanID == span.context.stoicSpanContext?.spanID)
      #expect(carrier["tracestate"] == "congo=t61rcWkgMzE")
      span.end()
      let end = try #require(try Self.ends(spool).first)
      #expect(end.start.parentSpanID == remote.spanID && end.start.traceState == remote.traceState)
      var invalid = ServiceContext.topLevel
      tracer.extract(["traceparent": "00-zz-b7ad6b7169203331-01"], into: &invalid, using: Headers())
      #expect(invalid.stoicSpanContext == nil)
      try spool.close()
    }

    @Test("a span open when the process dies is ended as unfinished by the next open, once")
    func crashCutsASpanShort() throws {
      let disk = SimulatedFileSystem()
      let spool = try Self.spool(disk)
      let tracer = try StoicTracer(spool: spool)
      let root = tracer.startSpan("request", context: .topLevel)
      let child = tracer.startSpan("work", context: root.context)
      child.end()
      let crashed = disk.copy()
      let reopened = try Self.spool(crashed)
      #expect(reopened.spansEndedAtOpen == 1)
      let ends = try Self.ends(reopened)
      #expect(ends.count == 2)
      let unfinished = try #require(ends.last)
      #expect(unfinished.isUnfinished && unfinished.start.name == "request")
      #expect(unfinished.start.spanID == root.context.stoicSpanContext?.spanID)
      try reopened.close()
      _ = spool
    }
  }
#endif
