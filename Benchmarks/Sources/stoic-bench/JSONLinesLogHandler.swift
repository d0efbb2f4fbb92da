import Foundation
import Logging

/// A swift-log handler that writes each record as one JSON object on a line (time in
/// nanoseconds, level, label, message, metadata) with one `write` to a file opened for
/// appending, as common Swift file loggers do: what a log shipper's `filelog` receiver reads.
struct JSONLinesLogHandler: LogHandler {
  var logLevel: Logger.Level = .info
  var metadata: Logger.Metadata = [:]
  let label: String
  let file: RawFile

  subscript(metadataKey key: String) -> Logger.Metadata.Value? {
    get { metadata[key] }
    set { metadata[key] = newValue }
  }

  func log(event: LogEvent) {
    var clock = timespec()
    clock_gettime(CLOCK_REALTIME, &clock)
    let nanoseconds = Int(clock.tv_sec) * 1_000_000_000 + Int(clock.tv_nsec)
    var merged = metadata
    if let explicit = event.metadata { merged.merge(explicit) { $1 } }
    let pairs = merged.sorted { $0.key < $1.key }
      .map { "\(LogPeer.quoted($0.key)):\(LogPeer.quoted($0.value.description))" }
      .joined(separator: ",")
    let line =
      "{\"time\":\(nanoseconds),\"level\":\"\(event.level)\",\"label\":\(LogPeer.quoted(label)),"
      + "\"message\":\(LogPeer.quoted(event.message.description)),\"metadata\":{\(pairs)}}\n"
    try? file.write(Array(line.utf8))
  }
}
