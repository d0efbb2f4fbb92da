public import Observation
import StoicStore

/// Settings that survive crashes, invalid values, renamed fields and downgrades: one value of
/// `Value`, declared by a ``SettingsSchema``, stored in one file through `AtomicFile`.
///
/// ## Usage
///
/// ```swift
/// import StoicSettings
/// import StoicStore
///
/// struct Prefs: Sendable, Equatable {
///   var scrollSpeed = 600
///   var theme = "system"
///
///   static let schema = SettingsSchema(
///     version: 2,
///     defaults: Prefs(),
///     fields: [
///       .field("scrollSpeed", \.scrollSpeed, .range(1...2000)),
///       .field("theme", \.theme, .oneOf(["light", "dark", "system"])),
///     ],
///     migrations: [.renaming("speed", to: "scrollSpeed", from: 1)]  // version 1 said "speed"
///   )
/// }
///
/// let settings = try SettingsStore.open(at: "/var/lib/app/prefs.json", schema: Prefs.schema)
/// print(settings.value.scrollSpeed)  // observable with the Observation framework
/// print(settings.source)             // .file, .previousGeneration, .defaults(…), .newerFormat(…)
/// print(settings.issues)             // what the load repaired, migrated or quarantined
///
/// try settings.update { $0.scrollSpeed = 900 }  // validated, durable, then published
///
/// do throws(StoreError) {
///   try settings.update { $0.scrollSpeed = 0 }
/// } catch {
///   print(error.settingsIssues ?? [])  // [.invalid(key: "scrollSpeed", problem: "0 must be …")]
/// }
///
/// for await prefs in settings.changes() {  // every committed value, once, in order
///   print(prefs.theme)
/// }
/// ```
///
/// ## Load
/// ``open(at:schema:format:fileSystem:maxFileSize:permissions:events:)`` reads the current file,
/// then `<path>.previous`. A file that cannot be used at all is quarantined as `<path>.corrupt-N`
/// (never deleted) and the next generation tried; failing both, the defaults are used. Unusable
/// means: torn or bit-rotted (the app-owned checksum envelope fails), not JSON (a syntax error in a
/// hand-edited file included), not a JSON object, a format version that is not a whole number of 1
/// or more, nested deeper than 64 levels, or larger than `maxFileSize` (1 MiB by default; such a
/// file is set aside without being read into memory).
///
/// Decoding is lenient: a field whose stored value is unusable (the wrong type, out of range, a
/// number JSON cannot hold) keeps its default (``SettingsIssue/repaired(key:problem:)``) and
/// every other field is kept. Older formats are migrated as they are decoded. ``source`` says
/// where the settings came from and ``issues`` what was repaired, migrated, dropped or
/// quarantined.
///
/// An ``SettingsFormat/appOwned`` store writes a migrated or repaired document back at once
/// (the file it replaces stays as `<path>.previous`); a ``SettingsFormat/handEdited`` one never
/// writes on load.
///
/// ## Newer formats
/// A document whose version is above the schema's was written by a newer build. It is never
/// quarantined, fallen back over or overwritten: ``source`` is
/// ``SettingsSource/newerFormat(version:)``, ``value`` is the defaults (or the fields the schema
/// can read, when it preserves unknown keys), and ``update(_:)`` throws.
///
/// ## Update
/// ``update(_:)`` applies a change to a copy, checks the result against the schema (refusing
/// it with every problem, changing nothing), writes the document sparsely (the version and the
/// fields that differ from their defaults) through AtomicFile (temporary file, full sync,
/// rename, directory sync, previous generation kept), and only then publishes the new value.
/// Updates are serialised; observers (``value`` through Observation, or ``changes()``) see
/// each committed value, in commit order.
///
/// ## Limits
/// One store per file per process; two processes must not share a settings file. Change
/// handlers (Observation's `onChange`, the `change` closure of ``update(_:)``) must not call
/// ``update(_:)`` themselves: updates are serialised by a lock that is held while they run.
@Observable
public final class SettingsStore<Value: Sendable & Equatable>: Sendable {
  /// The settings file's path.
  @ObservationIgnored public let path: String
  /// The schema the file is read and written with.
  @ObservationIgnored public let schema: SettingsSchema<Value>
  /// How the file is stored.
  @ObservationIgnored public let format: SettingsFormat
  /// Where the settings came from when the store opened.
  @ObservationIgnored public let source: SettingsSource
  /// What the load repaired, migrated, dropped or quarantined, in the order it happened.
  @ObservationIgnored public let issues: [SettingsIssue]
  /// The largest document, in bytes, the store reads or writes (the envelope not counted).
  @ObservationIgnored public let maxFileSize: Int

  @ObservationIgnored let file: AtomicFile
  @ObservationIgnored let events: EventSink
  /// The value readers see; changed only after a write is durable.
  @ObservationIgnored let published: SleepingLock<Value>
  /// Serialises updates; held across the write.
  @ObservationIgnored let writer: SleepingLock<Writer>

  /// What only the updating thread touches.
  struct Writer: Sendable {
    /// The last committed value.
    var committed: Value
    /// Unknown keys kept from the file, written back with every update.
    var preserved: [String: SettingsJSON]
    /// The newer format version that makes the store read-only, if any.
    var readOnlyVersion: Int?
    /// The ``SettingsStore/changes()`` subscribers.
    var subscribers: [Int: AsyncStream<Value>.Continuation] = [:]
    /// The next subscriber's number.
    var nextSubscriber = 0
  }

  init(
    path: String, schema: SettingsSchema<Value>, format: SettingsFormat, maxFileSize: Int,
    file: AtomicFile, events: EventSink, loaded: SettingsLoaded<Value>
  ) {
    self.path = path
    self.schema = schema
    self.format = format
    self.maxFileSize = maxFileSize
    self.file = file
    self.events = events
    self.source = loaded.source
    self.issues = loaded.issues
    self.published = SleepingLock(loaded.value)
    self.writer = SleepingLock(
      Writer(
        committed: loaded.value, preserved: loaded.preserved,
        readOnlyVersion: loaded.readOnlyVersion))
  }

  deinit {
    writer.withLock { state in
      for subscriber in state.subscribers.values { subscriber.finish() }
    }
  }

  /// The current settings: the last value committed to disk (or loaded).
  ///
  /// Reading it registers with Observation, so SwiftUI views and `withObservationTracking`
  /// see every change. Safe to read from any thread; never blocks on a write in progress.
  public var value: Value {
    access(keyPath: \.value)
    return published.withLock { $0 }
  }

  /// Whether ``update(_:)`` is refused because the file was written by a newer format.
  public var isReadOnly: Bool {
    if case .newerFormat = source { return true }
    return false
  }
}

extension SettingsStore {
  /// Every committed value, in commit order, each exactly once: first the value current when
  /// the stream is created, then each value an ``update(_:)`` commits after that.
  ///
  /// Unlike Observation, which coalesces changes for a UI, this stream buffers every value
  /// (without bound, so consume it). It ends when the store is released.
  public func changes() -> AsyncStream<Value> {
    let (stream, continuation) = AsyncStream<Value>.makeStream(bufferingPolicy: .unbounded)
    let subscriber = writer.withLock { state in
      let subscriber = state.nextSubscriber
      state.nextSubscriber += 1
      continuation.yield(state.committed)
      state.subscribers[subscriber] = continuation
      return subscriber
    }
    continuation.onTermination = { [weak self] _ in
      self?.writer.withLock { _ = $0.subscribers.removeValue(forKey: subscriber) }
    }
    return stream
  }
}
