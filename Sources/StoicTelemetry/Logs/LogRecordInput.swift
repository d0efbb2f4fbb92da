/// What one log call hands the spool, as one value: the fields of a ``LogRecord`` that the
/// caller gives (the spool adds the time, and the journal the sequence). Named as swift-log's
/// `LogEvent` names them, with the logger's label.
///
/// Passed from the log call through ``RecordSpool/log(_:)`` to ``LogRecordFormat``, which sizes
/// and encodes it straight into the journal's mapped tail: borrowed all the way, never stored,
/// never copied byte by byte (its strings are referenced, not duplicated). A ``LogRecord`` read
/// back holds it whole. A new field of a log record is added here (the record has it then),
/// to ``LogRecordFormat``, to the OTLP mapping, and to the mapping from the caller's event
/// (the swift-log handler's `log(event:)`).
public struct LogRecordInput: Sendable, Hashable {
  /// Its severity.
  public var level: LogLevel
  /// The label of the logger it is logged through.
  public var label: String
  /// The message.
  public var message: String
  /// Structured metadata. For an input made with metadata pairs
  /// (``init(level:label:message:metadataPairs:source:file:function:line:)``), reading it builds
  /// the dictionary of those pairs; the spool never does, it encodes the pairs where they are.
  public var metadata: LogMetadata {
    get { metadataStorage.dictionary }
    set { metadataStorage = LogMetadataStorage(.dictionary(newValue)) }
  }
  /// The metadata as given: a dictionary, or pairs walked where they are.
  @usableFromInline
  var metadataStorage: LogMetadataStorage
  /// The module or subsystem that logs it (swift-log's `source`).
  public var source: String
  /// The source file of the call.
  public var file: String
  /// The function of the call.
  public var function: String
  /// The line of the call.
  public var line: UInt

  /// Creates the input of a log call; every parameter is the property of the same name.
  @inlinable
  public init(
    level: LogLevel, label: String, message: String, metadata: LogMetadata = [:],
    source: String = "", file: String = #fileID, function: String = #function,
    line: UInt = #line
  ) {
    self.init(
      level: level, label: label, message: message,
      metadataStorage: LogMetadataStorage(.dictionary(metadata)), source: source, file: file,
      function: function, line: line)
  }

  /// Creates the input of a log call whose metadata is `metadataPairs`, which the spool sizes
  /// and encodes where they are: a log handler whose call's metadata is all a record has (no
  /// handler metadata, nothing from a metadata provider) hands that dictionary over wrapped,
  /// so the call builds no ``LogMetadata`` for it (see ``LogMetadataPairs``). With
  /// ``LogSpoolOptions/redactedKeys`` set, the spool copies the pairs into a ``LogMetadata``
  /// first (one allocation), so that redaction sees them as always. Every other parameter is
  /// the property of the same name.
  @inlinable
  public init(
    level: LogLevel, label: String, message: String,
    metadataPairs: some LogMetadataPairs & Sendable, source: String = "",
    file: String = #fileID, function: String = #function, line: UInt = #line
  ) {
    self.init(
      level: level, label: label, message: message,
      metadataStorage: LogMetadataStorage(.pairs(metadataPairs)), source: source, file: file,
      function: function, line: line)
  }

  /// The input with its metadata in `metadataStorage`'s form.
  @inlinable
  init(
    level: LogLevel, label: String, message: String, metadataStorage: LogMetadataStorage,
    source: String, file: String, function: String, line: UInt
  ) {
    self.level = level
    self.label = label
    self.message = message
    self.metadataStorage = metadataStorage
    self.source = source
    self.file = file
    self.function = function
    self.line = line
  }
}

/// A log call's metadata as its caller gave it: a ``LogMetadata``, or ``LogMetadataPairs``
/// the spool walks where they are. Equal and hashed as the dictionary the pairs make.
@usableFromInline
struct LogMetadataStorage: Sendable, Hashable {
  /// The two forms.
  @usableFromInline
  enum Form: Sendable {
    /// A dictionary.
    case dictionary(LogMetadata)
    /// Pairs walked where they are.
    case pairs(any LogMetadataPairs & Sendable)
  }

  @usableFromInline
  var form: Form

  @inlinable
  init(_ form: Form) {
    self.form = form
  }

  /// The metadata as a dictionary (built, for pairs).
  var dictionary: LogMetadata {
    switch form {
    case .dictionary(let metadata): metadata
    case .pairs(let pairs): LogMetadata(pairs: pairs)
    }
  }

  @usableFromInline
  static func == (lhs: Self, rhs: Self) -> Bool { lhs.dictionary == rhs.dictionary }

  @usableFromInline
  func hash(into hasher: inout Hasher) { hasher.combine(dictionary) }
}

/// Metadata the spool encodes in place, walked where it is, instead of a ``LogMetadata`` built
/// for the call: a log handler whose call's metadata is all a record has (no handler metadata,
/// nothing from a metadata provider) hands that dictionary over wrapped, with no copy and no
/// allocation
/// (``LogRecordInput/init(level:label:message:metadataPairs:source:file:function:line:)``).
/// ``LogMetadata`` itself is one.
///
/// The spool takes one walk's pairs whole: it walks them once, encoding them on the stack, and
/// when they encode to 1 KiB or more it walks them once more into a ``LogMetadata``, which it
/// then sizes and encodes. So a walk may give values another walk would not (a description
/// computed at each call): the record holds one walk's pairs, never a mix. Keys are unique.
public protocol LogMetadataPairs {
  /// How many pairs ``forEachPair(_:)`` gives.
  var pairCount: Int { get }

  /// Calls `body` with every key and value.
  func forEachPair(_ body: (String, LogMetadataValue) -> Void)
}

extension Dictionary: LogMetadataPairs where Key == String, Value == LogMetadataValue {
  /// The number of entries.
  public var pairCount: Int { count }

  /// Calls `body` with every entry, in the dictionary's order.
  @inlinable
  public func forEachPair(_ body: (String, LogMetadataValue) -> Void) {
    for (key, value) in self { body(key, value) }
  }

  /// The pairs of `pairs` as a dictionary (a later pair wins a key).
  init(pairs: some LogMetadataPairs) {
    self.init(minimumCapacity: pairs.pairCount)
    pairs.forEachPair { key, value in self[key] = value }
  }
}
