import BenchKit
import Foundation
import Logging
import StoicLogging
import StoicTelemetry

/// The log call as an app makes it: `logger.info("…", metadata: [three pairs])` through a
/// swift-log `Logger` made with `Logger(label:factory:)` (bootstrapping is once per process), over
/// Stoic's handler and swift-log's own.
enum SwiftLogPeer {
  /// One `logger.info` call of the log scenarios: record `index`'s message and three pairs.
  @inline(__always)
  static func info(_ logger: Logger, _ line: LogLine, _ index: Int) {
    info(logger, line, message: line.message(index))
  }

  /// One `logger.info` call with `message` and the three pairs.
  @inline(__always)
  static func info(_ logger: Logger, _ line: LogLine, message: String) {
    logger.info(
      "\(message)",
      metadata: ["request-id": "9f3c2a71e4b8d605", "route": "/api/v1/orders", "user": "u-48213"],
      source: line.source)
  }

  /// A new telemetry spool (default options) in `directory`, `count` calls through a `Logger`
  /// over `StoicLogHandler`.
  static func stoic(
    _ line: LogLine, count: Int, in directory: String, latencies: Bool = true,
    options: TelemetryOptions = TelemetryOptions()
  ) throws -> RunSample {
    let spool = try TelemetrySpool.open(at: directory, options: options)
    let logger = Logger(label: line.label) { StoicLogHandler(label: $0, spool: spool) }
    let sample = RunSample.timing(count: count, latencies: latencies) { index in
      info(logger, line, index)
    }
    try spool.close()
    return sample
  }

  /// swift-log's own `StreamLogHandler` writing to a file. Its public constructors write to the
  /// standard output or error only, so the standard output is pointed at the file for the loop
  /// (the handler writes and flushes every record, as it does to a terminal).
  static func streamHandler(
    _ line: LogLine, count: Int, in directory: String, latencies: Bool = true
  ) throws -> RunSample {
    let file = open(directory + "/swift-log-stream.log", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    guard file >= 0 else { throw BenchError("cannot create the stream handler's file") }
    fflush(nil)
    let saved = dup(STDOUT_FILENO)
    guard saved >= 0, dup2(file, STDOUT_FILENO) >= 0 else {
      close(file)
      throw BenchError("cannot point the standard output at the stream handler's file")
    }
    close(file)
    defer {
      fflush(nil)
      dup2(saved, STDOUT_FILENO)
      close(saved)
    }
    let logger = Logger(label: line.label) { StreamLogHandler.standardOutput(label: $0) }
    return RunSample.timing(count: count, latencies: latencies) { index in
      info(logger, line, index)
    }
  }

  /// swift-log's `SwiftLogNoOpLogHandler`: its level is `critical`, so `Logger` filters the call
  /// before it evaluates the message or the metadata. The floor of a log call.
  static func noOp(_ line: LogLine, count: Int, latencies: Bool = true) -> RunSample {
    let logger = Logger(label: line.label) { SwiftLogNoOpLogHandler($0) }
    return RunSample.timing(count: count, latencies: latencies) { index in
      info(logger, line, index)
    }
  }

  /// A handler at `info` that drops every event: what swift-log itself costs and allocates for
  /// the call (the message's string, the metadata's dictionary, the event) with no handler work.
  static func discard(_ line: LogLine, count: Int, latencies: Bool = true) -> RunSample {
    let logger = Logger(label: line.label) { _ in DiscardingHandler() }
    return RunSample.timing(count: count, latencies: latencies) { index in
      info(logger, line, index)
    }
  }
}

/// A `LogHandler` at `info` that reads the event's message and metadata count and keeps nothing.
struct DiscardingHandler: LogHandler {
  var logLevel: Logger.Level = .info
  var metadata: Logger.Metadata = [:]

  subscript(metadataKey key: String) -> Logger.Metadata.Value? {
    get { metadata[key] }
    set { metadata[key] = newValue }
  }

  func log(event: LogEvent) {
    Self.keep(event)
  }

  /// Keeps `value` alive for the optimiser: what a handler reads is made.
  @_optimize(none)
  static func keep(_ value: LogEvent) {}
}
