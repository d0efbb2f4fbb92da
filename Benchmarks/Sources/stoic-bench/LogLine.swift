import BenchKit
import StoicTelemetry

/// The benchmark's log line (``BenchLine``) with its metadata as the spool takes it.
struct LogLine: Sendable {
  let text = BenchLine()
  var label: String { text.label }
  var messages: [String] { text.messages }
  let metadata: LogMetadata = LogMetadata(
    uniqueKeysWithValues: BenchLine().metadataPairs.map { ($0.0, LogMetadataValue.string($0.1)) })
  var source: String { text.source }

  func message(_ index: Int) -> String { text.message(index) }

  func message(sequence: Int) -> String { text.message(sequence: sequence) }

  static func sequence(in text: Substring) -> Int? { BenchLine.sequence(in: text) }
}
