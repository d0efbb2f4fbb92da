public import StoicStore
import Synchronization

/// Something `verify` or `inspect` found in a store: damage, a torn tail, a quarantined file,
/// an entry this build cannot read.
public struct Finding: Sendable, Hashable {
  /// How much it matters.
  public enum Severity: String, Sendable, Hashable, Comparable {
    /// Something the library would refuse, or bytes of durable data it cannot use:
    /// `verify` exits 1.
    case damage
    /// Something the library handles by itself (a torn tail it cuts, an entry it keeps
    /// unread) that a person may want to know about.
    case warning
    /// Worth knowing (a quarantined file kept from earlier damage, a stale temporary).
    case note

    /// Damage first.
    public static func < (lhs: Severity, rhs: Severity) -> Bool {
      let order: [Severity] = [.damage, .warning, .note]
      return order.firstIndex(of: lhs) ?? 0 < order.firstIndex(of: rhs) ?? 0
    }
  }

  /// What kind of thing was found.
  public enum Kind: String, Sendable, Hashable {
    /// Damaged bytes inside durable data, or a file the library refuses.
    case damage
    /// The end of the active segment after the last durable point: never acknowledged as
    /// durable, cut by the next open.
    case tornTail = "torn-tail"
    /// A `*.corrupt-*` file: bytes set aside by an earlier recovery, never deleted.
    case quarantined
    /// A stale temporary file, removed by the next open or write.
    case temporary
    /// An outbox entry or record this build cannot decode, kept byte for byte.
    case unreadableEntry = "unreadable-entry"
    /// A file in the store's directory that is not one of its own.
    case unknownFile = "unknown-file"
    /// Files the group or others may read.
    case permissions
    /// A journal segment far larger than the journal's segments grow.
    case oversizedSegment = "oversized-segment"
    /// What the next open would change on its own (an interrupted drop finished, …).
    case recovery
  }

  /// How much it matters.
  public var severity: Severity
  /// What it is.
  public var kind: Kind
  /// The file concerned, if one.
  public var file: String?
  /// Where in the file it starts, if known.
  public var offset: UInt64?
  /// How many bytes it covers, if known.
  public var length: UInt64?
  /// A sentence for a person.
  public var message: String

  /// A finding.
  public init(
    _ severity: Severity, _ kind: Kind, file: String? = nil, offset: UInt64? = nil,
    length: UInt64? = nil, _ message: String
  ) {
    self.severity = severity
    self.kind = kind
    self.file = file
    self.offset = offset
    self.length = length
    self.message = message
  }

  /// The finding as a JSON object.
  public var json: JSONValue {
    .object([
      ("severity", .string(severity.rawValue)), ("kind", .string(kind.rawValue)),
      ("file", .optional(file)), ("offset", .optional(offset)), ("length", .optional(length)),
      ("message", .string(message)),
    ])
  }
}

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
