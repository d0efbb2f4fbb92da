// The swift-log integration is built only with the `SwiftLog` trait:
// `swift build --traits SwiftLog`. A default build compiles nothing here and fetches nothing.
#if SwiftLog
  public import Logging
  public import StoicStore
  public import StoicTelemetry

  /// A swift-log `LogHandler` that writes every record into a Stoic telemetry spool: in the
  /// kernel when the log call returns (a crash of the process loses nothing), durable before it
  /// returns at or above the spool's durable level (`.error` by default), every drop counted.
  ///
  /// ```swift
  /// let telemetry = try TelemetrySpool.open(at: "/var/lib/app/telemetry")
  /// LoggingSystem.bootstrap { StoicLogHandler(label: $0, spool: telemetry) }
  /// ```
  ///
  /// A value type, as swift-log requires: changing the level or the metadata of one logger
  /// changes that logger only. It converts and hands over; everything else (encoding,
  /// durability, quota, disk errors) is the `LogSpool`'s, tested without
  /// swift-log.
  ///
  /// Metadata is merged as swift-log's own handlers do: the handler's, then the metadata
  /// provider's, then the call's (a later one wins a key); an error given to the call is added
  /// as `exception.message` and `exception.type` (OpenTelemetry's semantic conventions).
  public struct StoicLogHandler: LogHandler {
    /// The logger's label, stored with every record.
    public let label: String
    /// The log spool the records go to.
    public let spool: LogSpool
    /// The least severe level logged; swift-log filters below it before calling the handler.
    public var logLevel: Logger.Level
    /// Adds metadata to every record when it is logged (task-local values, for example).
    public var metadataProvider: Logger.MetadataProvider?
    /// The handler's own metadata, as swift-log gave it.
    public var metadata: Logger.Metadata {
      didSet { converted = Self.convert(metadata) }
    }
    /// ``metadata`` converted once, when it is set, rather than at every record.
    private var converted: LogMetadata

    /// A handler writing into `spool`'s log spool.
    ///
    /// - Parameters:
    ///   - label: The logger's label.
    ///   - spool: The telemetry spool.
    ///   - logLevel: The least severe level logged. Default `.info`.
    ///   - metadataProvider: The metadata provider; by default the one given to
    ///     `LoggingSystem.bootstrap`.
    public init(
      label: String, spool: TelemetrySpool, logLevel: Logger.Level = .info,
      metadataProvider: Logger.MetadataProvider? = LoggingSystem.metadataProvider
    ) {
      self.init(
        label: label, logs: spool.logs, logLevel: logLevel, metadataProvider: metadataProvider)
    }

    /// A handler writing into `logs`.
    ///
    /// - Parameters:
    ///   - label: The logger's label.
    ///   - logs: The log spool.
    ///   - logLevel: The least severe level logged. Default `.info`.
    ///   - metadataProvider: The metadata provider; by default the one given to
    ///     `LoggingSystem.bootstrap`.
    public init(
      label: String, logs: LogSpool, logLevel: Logger.Level = .info,
      metadataProvider: Logger.MetadataProvider? = LoggingSystem.metadataProvider
    ) {
      self.label = label
      self.spool = logs
      self.logLevel = logLevel
      self.metadataProvider = metadataProvider
      self.metadata = [:]
      self.converted = [:]
    }

    /// Every event a telemetry spool can report (the storage core's and the spool's), each with
    /// its level, meaning and fields.
    public static var eventCatalog: EventCatalog { TelemetrySpool.eventCatalog }

    /// One of the handler's metadata values.
    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
      get { metadata[key] }
      set { metadata[key] = newValue }
    }

    /// Writes the record into the spool (see `LogSpool.log(_:)`).
    ///
    /// When the call's metadata is all the record has (the handler has none, the provider gives
    /// none, no error), the spool encodes swift-log's dictionary where it is: no merged
    /// dictionary, and for string values no allocation beyond swift-log's own.
    public func log(event: LogEvent) {
      let provided = metadataProvider?.get()
      if converted.isEmpty, event.error == nil, provided?.isEmpty ?? true {
        spool.log(
          LogRecordInput(
            event, label: label, metadataPairs: CallMetadata(metadata: event.metadata ?? [:])))
        return
      }
      var merged = converted
      if let provided, !provided.isEmpty {
        for (key, value) in provided { merged[key] = Self.convert(value) }
      }
      if let explicit = event.metadata {
        for (key, value) in explicit { merged[key] = Self.convert(value) }
      }
      if let error = event.error {
        merged[Self.exceptionMessageKey] = .string("\(error)")
        merged[Self.exceptionTypeKey] = .string(String(reflecting: type(of: error)))
      }
      spool.log(LogRecordInput(event, label: label, metadata: merged))
    }

    /// The metadata key of the description of an error given to a log call:
    /// `exception.message`, as OpenTelemetry's semantic conventions name it.
    static let exceptionMessageKey = "exception.message"
    /// The metadata key of the type of an error given to a log call: `exception.type`, as
    /// OpenTelemetry's semantic conventions name it.
    static let exceptionTypeKey = "exception.type"

    /// A call's metadata handed to the spool as it is, each value converted as the spool walks
    /// it: a string at no allocation, a string-convertible value as its description then (the
    /// spool keeps one walk's pairs whole, see `LogMetadataPairs`).
    struct CallMetadata: LogMetadataPairs {
      let metadata: Logger.Metadata

      var pairCount: Int { metadata.count }

      func forEachPair(_ body: (String, LogMetadataValue) -> Void) {
        // By index, each value switched over where the dictionary holds it: a `for` over the
        // pairs copied every value out twice.
        var index = metadata.startIndex
        while index != metadata.endIndex {
          switch metadata.values[index] {
          case .string(let text): body(metadata.keys[index], .string(text))
          case let value: body(metadata.keys[index], StoicLogHandler.convert(value))
          }
          metadata.formIndex(after: &index)
        }
      }
    }

    /// swift-log's metadata as the spool's.
    static func convert(_ metadata: Logger.Metadata) -> LogMetadata {
      metadata.mapValues(convert)
    }

    /// One swift-log metadata value as the spool's: a string-convertible value keeps its
    /// description.
    static func convert(_ value: Logger.MetadataValue) -> LogMetadataValue {
      switch value {
      case .string(let text): .string(text)
      case .stringConvertible(let convertible): .stringConvertible(convertible.description)
      case .dictionary(let entries): .dictionary(convert(entries))
      case .array(let values): .array(values.map(convert))
      }
    }
  }

  extension LogRecordInput {
    /// The spool's input for swift-log's `event`, logged through the logger labelled `label`,
    /// with `metadata` (the handler's, the provider's and the event's, merged and converted).
    init(_ event: LogEvent, label: String, metadata: LogMetadata) {
      self.init(
        level: LogLevel(event.level), label: label, message: event.message.description,
        metadata: metadata, source: event.source, file: event.file, function: event.function,
        line: event.line)
    }

    /// The spool's input for swift-log's `event` whose metadata is `pairs`, walked where they
    /// are.
    @inline(__always)
    init(_ event: LogEvent, label: String, metadataPairs pairs: some LogMetadataPairs & Sendable) {
      self.init(
        level: LogLevel(event.level), label: label, message: event.message.description,
        metadataPairs: pairs, source: event.source, file: event.file, function: event.function,
        line: event.line)
    }
  }

  extension LogLevel {
    /// The spool's level for swift-log's (the same seven).
    public init(_ level: Logger.Level) {
      switch level {
      case .trace: self = .trace
      case .debug: self = .debug
      case .info: self = .info
      case .notice: self = .notice
      case .warning: self = .warning
      case .error: self = .error
      case .critical: self = .critical
      }
    }
  }
#endif
