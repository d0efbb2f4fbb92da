/// What a span's end writes into the span spool: the whole span, its start included, so that
/// the forwarder exports an ended span from its end alone.
public struct SpanEnd: Sendable, Hashable {
  /// The span's start.
  public var start: SpanStart
  /// When it ended, in nanoseconds since 1970-01-01 00:00:00 UTC.
  public var endTimeNanoseconds: Int64
  /// Its attributes, within the tracer's limits. For an end made with attribute pairs
  /// (``init(start:endTimeNanoseconds:attributePairs:droppedAttributesCount:events:droppedEventsCount:links:droppedLinksCount:status:isUnfinished:)``),
  /// reading it builds the dictionary of those pairs; the spool never does, it encodes the
  /// pairs where they are.
  public var attributes: SpanRecordAttributes {
    get { attributeStorage.dictionary }
    set { attributeStorage = SpanAttributeStorage(pairs: newValue) }
  }
  /// The attributes as given: a dictionary, or pairs walked where they are.
  var attributeStorage: SpanAttributeStorage
  /// Attributes the limits dropped.
  public var droppedAttributesCount: UInt32
  /// Its events, in the order they were added.
  public var events: [Event]
  /// Events the limit dropped.
  public var droppedEventsCount: UInt32
  /// Its links.
  public var links: [Link]
  /// Links the limit dropped.
  public var droppedLinksCount: UInt32
  /// Its status.
  public var status: Status
  /// Whether the span was ended for the code, not by it: the process ended (a crash, found by
  /// the next open) or the spool shut down while it was open. Such an end carries
  /// ``unfinishedAttribute``, status error and ``unfinishedDescription``.
  public var isUnfinished: Bool

  /// The attribute an unfinished span carries, `true`: `stoic.span.unfinished`.
  public static let unfinishedAttribute = "stoic.span.unfinished"
  /// The status description of an unfinished span.
  public static let unfinishedDescription =
    "the process ended before the span did (ended by Stoic at the last time it was known alive)"

  /// Creates an end; every parameter is the property of the same name.
  public init(
    start: SpanStart, endTimeNanoseconds: Int64, attributes: SpanRecordAttributes = [:],
    droppedAttributesCount: UInt32 = 0, events: [Event] = [], droppedEventsCount: UInt32 = 0,
    links: [Link] = [], droppedLinksCount: UInt32 = 0, status: Status = Status(),
    isUnfinished: Bool = false
  ) {
    self.init(
      start: start, endTimeNanoseconds: endTimeNanoseconds, attributePairs: attributes,
      droppedAttributesCount: droppedAttributesCount, events: events,
      droppedEventsCount: droppedEventsCount, links: links, droppedLinksCount: droppedLinksCount,
      status: status, isUnfinished: isUnfinished)
  }

  /// Creates an end whose attributes are `attributePairs`, which the spool sizes and encodes
  /// where they are (see ``SpanAttributePairs``): a tracer hands its API's attributes over
  /// wrapped, so ending the span builds no dictionary for them. Every other parameter is the
  /// property of the same name.
  public init(
    start: SpanStart, endTimeNanoseconds: Int64,
    attributePairs: some SpanAttributePairs & Sendable, droppedAttributesCount: UInt32 = 0,
    events: [Event] = [], droppedEventsCount: UInt32 = 0, links: [Link] = [],
    droppedLinksCount: UInt32 = 0, status: Status = Status(), isUnfinished: Bool = false
  ) {
    self.start = start
    self.endTimeNanoseconds = endTimeNanoseconds
    attributeStorage = SpanAttributeStorage(pairs: attributePairs)
    self.droppedAttributesCount = droppedAttributesCount
    self.events = events
    self.droppedEventsCount = droppedEventsCount
    self.links = links
    self.droppedLinksCount = droppedLinksCount
    self.status = status
    self.isUnfinished = isUnfinished
  }

  /// The end of a span the process did not end: at `timeNanoseconds` (never before its
  /// start), status error with ``unfinishedDescription``, the attribute
  /// ``unfinishedAttribute`` set.
  public static func unfinished(_ start: SpanStart, at timeNanoseconds: Int64) -> SpanEnd {
    SpanEnd(
      start: start, endTimeNanoseconds: max(timeNanoseconds, start.startTimeNanoseconds),
      attributes: [unfinishedAttribute: .bool(true)],
      status: Status(code: .error, message: unfinishedDescription), isUnfinished: true)
  }

  /// An event of a span: a name, a time and attributes.
  public struct Event: Sendable, Hashable {
    /// Its name.
    public var name: String
    /// When it happened, in nanoseconds since 1970-01-01 00:00:00 UTC.
    public var timeNanoseconds: Int64
    /// Its attributes.
    public var attributes: SpanRecordAttributes
    /// Attributes the limit dropped.
    public var droppedAttributesCount: UInt32

    /// Creates an event; every parameter is the property of the same name.
    public init(
      name: String, timeNanoseconds: Int64, attributes: SpanRecordAttributes = [:],
      droppedAttributesCount: UInt32 = 0
    ) {
      self.name = name
      self.timeNanoseconds = timeNanoseconds
      self.attributes = attributes
      self.droppedAttributesCount = droppedAttributesCount
    }
  }

  /// A link from a span to another span, of this trace or another.
  public struct Link: Sendable, Hashable {
    /// The linked span's trace.
    public var traceID: TraceID
    /// The linked span.
    public var spanID: SpanID
    /// The linked span's W3C `tracestate` (empty when none).
    public var traceState: String
    /// The linked span's W3C trace flags.
    public var traceFlags: UInt8
    /// The link's attributes.
    public var attributes: SpanRecordAttributes
    /// Attributes the limit dropped.
    public var droppedAttributesCount: UInt32

    /// Creates a link; every parameter is the property of the same name.
    public init(
      traceID: TraceID, spanID: SpanID, traceState: String = "", traceFlags: UInt8 = 1,
      attributes: SpanRecordAttributes = [:], droppedAttributesCount: UInt32 = 0
    ) {
      self.traceID = traceID
      self.spanID = spanID
      self.traceState = traceState
      self.traceFlags = traceFlags
      self.attributes = attributes
      self.droppedAttributesCount = droppedAttributesCount
    }
  }

  /// A span's status, as OTLP's `Status`.
  public struct Status: Sendable, Hashable {
    /// Its code.
    public var code: Code
    /// Its description (only meaningful with ``Code/error``).
    public var message: String

    /// Creates a status; unset with no description by default.
    public init(code: Code = .unset, message: String = "") {
      self.code = code
      self.message = message
    }

    /// A status code, numbered as OTLP's `Status.StatusCode`.
    public enum Code: UInt8, Sendable, Hashable, CaseIterable {
      /// Not set.
      case unset = 0
      /// Set to ok.
      case ok = 1
      /// An error.
      case error = 2
    }
  }
}
