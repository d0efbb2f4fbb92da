// The traces signal's messages: `opentelemetry.proto.trace.v1` and
// `opentelemetry.proto.collector.trace.v1`, outer to inner.

extension OTLP {
  /// The body of a `POST /v1/traces`:
  /// `opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest`.
  public struct ExportTraceServiceRequest: Sendable, Hashable {
    /// The spans, by resource.
    public var resourceSpans: [ResourceSpans]

    /// Creates a request.
    public init(resourceSpans: [ResourceSpans] = []) {
      self.resourceSpans = resourceSpans
    }

    /// How many spans the request carries.
    public var spanCount: Int {
      resourceSpans.reduce(0) { total, resource in
        resource.scopeSpans.reduce(total) { $0 + $1.spans.count }
      }
    }
  }

  /// The body of a successful answer to `POST /v1/traces`:
  /// `opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse`.
  public struct ExportTraceServiceResponse: Sendable, Hashable {
    /// Set when the receiver rejected some spans, or has a warning; `nil` for a full success.
    public var partialSuccess: ExportTracePartialSuccess?

    /// Creates a response.
    public init(partialSuccess: ExportTracePartialSuccess? = nil) {
      self.partialSuccess = partialSuccess
    }
  }

  /// What a receiver rejected of a traces request:
  /// `opentelemetry.proto.collector.trace.v1.ExportTracePartialSuccess`.
  public struct ExportTracePartialSuccess: Sendable, Hashable {
    /// How many spans were rejected (0 with a message: a warning).
    public var rejectedSpans: Int64
    /// Why, in English, for a person.
    public var errorMessage: String

    /// Creates a partial success.
    public init(rejectedSpans: Int64 = 0, errorMessage: String = "") {
      self.rejectedSpans = rejectedSpans
      self.errorMessage = errorMessage
    }
  }

  /// The spans of one resource: `opentelemetry.proto.trace.v1.ResourceSpans`.
  public struct ResourceSpans: Sendable, Hashable {
    /// The resource; `nil` when not given.
    public var resource: Resource?
    /// The spans, by scope.
    public var scopeSpans: [ScopeSpans]
    /// The schema URL of the resource's attributes.
    public var schemaUrl: String

    /// Creates the spans of one resource.
    public init(resource: Resource? = nil, scopeSpans: [ScopeSpans] = [], schemaUrl: String = "") {
      self.resource = resource
      self.scopeSpans = scopeSpans
      self.schemaUrl = schemaUrl
    }
  }

  /// The spans of one instrumentation scope: `opentelemetry.proto.trace.v1.ScopeSpans`.
  public struct ScopeSpans: Sendable, Hashable {
    /// The scope; `nil` when not given.
    public var scope: InstrumentationScope?
    /// The spans.
    public var spans: [Span]
    /// The schema URL of the spans' attributes.
    public var schemaUrl: String

    /// Creates a group of spans.
    public init(scope: InstrumentationScope? = nil, spans: [Span] = [], schemaUrl: String = "") {
      self.scope = scope
      self.spans = spans
      self.schemaUrl = schemaUrl
    }
  }

  /// One span: `opentelemetry.proto.trace.v1.Span`.
  public struct Span: Sendable, Hashable {
    /// The 16-byte trace id (hex in JSON).
    public var traceId: [UInt8]
    /// The 8-byte span id (hex in JSON).
    public var spanId: [UInt8]
    /// The W3C `tracestate`.
    public var traceState: String
    /// The parent's 8-byte span id, or empty for a root span.
    public var parentSpanId: [UInt8]
    /// W3C trace flags in the low byte.
    public var flags: UInt32
    /// The span's name.
    public var name: String
    /// Its kind (`Span.SpanKind`, 0 unspecified … 5 consumer).
    public var kind: Int32
    /// When it started, in nanoseconds since the Unix epoch.
    public var startTimeUnixNano: UInt64
    /// When it ended, in nanoseconds since the Unix epoch.
    public var endTimeUnixNano: UInt64
    /// Its attributes.
    public var attributes: [KeyValue]
    /// How many attributes were dropped.
    public var droppedAttributesCount: UInt32
    /// Its events.
    public var events: [Event]
    /// How many events were dropped.
    public var droppedEventsCount: UInt32
    /// Its links.
    public var links: [Link]
    /// How many links were dropped.
    public var droppedLinksCount: UInt32
    /// Its status; `nil` when not given.
    public var status: Status?

    /// Creates a span.
    public init(
      traceId: [UInt8] = [], spanId: [UInt8] = [], traceState: String = "",
      parentSpanId: [UInt8] = [], flags: UInt32 = 0, name: String = "", kind: Int32 = 0,
      startTimeUnixNano: UInt64 = 0, endTimeUnixNano: UInt64 = 0, attributes: [KeyValue] = [],
      droppedAttributesCount: UInt32 = 0, events: [Event] = [], droppedEventsCount: UInt32 = 0,
      links: [Link] = [], droppedLinksCount: UInt32 = 0, status: Status? = nil
    ) {
      self.traceId = traceId
      self.spanId = spanId
      self.traceState = traceState
      self.parentSpanId = parentSpanId
      self.flags = flags
      self.name = name
      self.kind = kind
      self.startTimeUnixNano = startTimeUnixNano
      self.endTimeUnixNano = endTimeUnixNano
      self.attributes = attributes
      self.droppedAttributesCount = droppedAttributesCount
      self.events = events
      self.droppedEventsCount = droppedEventsCount
      self.links = links
      self.droppedLinksCount = droppedLinksCount
      self.status = status
    }

    /// The value of the first attribute named `key`.
    public func attribute(_ key: String) -> AnyValue? {
      attributes.first { $0.key == key }?.value
    }

    /// A span's status: `opentelemetry.proto.trace.v1.Status` (nested here: `OTLP.Status` is
    /// gRPC's).
    public struct Status: Sendable, Hashable {
      /// Its description.
      public var message: String
      /// Its code: 0 unset, 1 ok, 2 error.
      public var code: Int32

      /// Creates a status.
      public init(message: String = "", code: Int32 = 0) {
        self.message = message
        self.code = code
      }
    }

    /// An event of a span: `opentelemetry.proto.trace.v1.Span.Event`.
    public struct Event: Sendable, Hashable {
      /// When it happened, in nanoseconds since the Unix epoch.
      public var timeUnixNano: UInt64
      /// Its name.
      public var name: String
      /// Its attributes.
      public var attributes: [KeyValue]
      /// How many attributes were dropped.
      public var droppedAttributesCount: UInt32

      /// Creates an event.
      public init(
        timeUnixNano: UInt64 = 0, name: String = "", attributes: [KeyValue] = [],
        droppedAttributesCount: UInt32 = 0
      ) {
        self.timeUnixNano = timeUnixNano
        self.name = name
        self.attributes = attributes
        self.droppedAttributesCount = droppedAttributesCount
      }
    }

    /// A link to another span: `opentelemetry.proto.trace.v1.Span.Link`.
    public struct Link: Sendable, Hashable {
      /// The linked span's trace id.
      public var traceId: [UInt8]
      /// The linked span's id.
      public var spanId: [UInt8]
      /// The linked span's W3C `tracestate`.
      public var traceState: String
      /// Its attributes.
      public var attributes: [KeyValue]
      /// How many attributes were dropped.
      public var droppedAttributesCount: UInt32
      /// W3C trace flags in the low byte.
      public var flags: UInt32

      /// Creates a link.
      public init(
        traceId: [UInt8] = [], spanId: [UInt8] = [], traceState: String = "",
        attributes: [KeyValue] = [], droppedAttributesCount: UInt32 = 0, flags: UInt32 = 0
      ) {
        self.traceId = traceId
        self.spanId = spanId
        self.traceState = traceState
        self.attributes = attributes
        self.droppedAttributesCount = droppedAttributesCount
        self.flags = flags
      }
    }
  }
}

extension OTLP.ResourceSpans: OTLPResourceGroup {
  init() { self.init(resource: nil) }
  // Modified in place (a decoder appends to it): a setter would copy the array per append.
  var scopeGroups: [OTLP.ScopeSpans] {
    get { scopeSpans }
    _modify { yield &scopeSpans }
  }
  static var requestKey: StaticString { "resourceSpans" }
  static var scopesKey: StaticString { "scopeSpans" }
}

extension OTLP.ScopeSpans: OTLPScopeGroup {
  init() { self.init(scope: nil) }
  // Modified in place (a decoder appends to it): a setter would copy the array per append.
  var items: [OTLP.Span] {
    get { spans }
    _modify { yield &spans }
  }
  static var itemsKey: StaticString { "spans" }
  static func writeItem(_ item: OTLP.Span, to writer: inout ProtobufWriter) {
    OTLPTracesProtobuf.write(item, to: &writer)
  }
  static func readItem(_ reader: inout ProtobufReader) throws(ForwardingError) -> OTLP.Span {
    try OTLPTracesProtobuf.readSpan(&reader)
  }
  static func writeItem(_ item: OTLP.Span, to writer: inout JSONWriter) {
    OTLPTracesJSON.write(item, to: &writer)
  }
  static func readItem(_ reader: inout JSONReader) throws(ForwardingError) -> OTLP.Span {
    try OTLPTracesJSON.readSpan(&reader)
  }
}

extension OTLP.ExportTraceServiceRequest: OTLPExportServiceRequest {
  /// Spans.
  public static var signal: OTLPSignal { .traces }

  var resourceGroups: [OTLP.ResourceSpans] { resourceSpans }

  init(resourceGroups: [OTLP.ResourceSpans]) { self.init(resourceSpans: resourceGroups) }

  /// Appends the binary protobuf encoding to `buffer`.
  public func encodeProtobuf(into buffer: inout [UInt8]) { appendProtobuf(to: &buffer) }

  /// Decodes binary protobuf.
  public init(protobuf bytes: [UInt8]) throws(ForwardingError) {
    try self.init(readingProtobuf: bytes)
  }

  /// Appends the OTLP JSON encoding to `buffer`.
  public func encodeJSON(into buffer: inout [UInt8]) { appendJSON(to: &buffer) }

  /// Decodes OTLP JSON.
  public init(json bytes: [UInt8]) throws(ForwardingError) { try self.init(readingJSON: bytes) }
}

extension OTLP.ExportTraceServiceResponse: OTLPExportServiceResponse {
  /// The spans the partial success rejected and its message, or `nil` for a full success.
  public var rejection: (count: Int64, message: String)? {
    partialSuccess.map { ($0.rejectedSpans, $0.errorMessage) }
  }

  /// A response holding the partial success `rejection` (spans rejected and a message), or a
  /// full success for `nil`.
  public init(rejection: (count: Int64, message: String)?) {
    self.init(
      partialSuccess: rejection.map {
        OTLP.ExportTracePartialSuccess(rejectedSpans: $0.count, errorMessage: $0.message)
      })
  }

  /// `rejectedSpans`.
  public static var rejectedCountKey: StaticString { "rejectedSpans" }
}
