import Foundation
import StoicCollector
import StoicForwarding
import StoicStore
import StoicTelemetry

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What the end-to-end tests read back once the processes are gone.
enum EndToEnd {
  /// A fresh directory under the temporary directory.
  static func scratch() throws -> String {
    let path = NSTemporaryDirectory() + "stoic-e2e-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }

  /// How many times the collector whose journal is in `directory` holds each agent `seq` (the
  /// collector stopped).
  static func agentSequences(collector directory: String) throws -> [Int: Int] {
    let archive = try CollectorArchive.open(directory: directory)
    defer { try? archive.close() }
    var counts: [Int: Int] = [:]
    for received in try archive.logRecords() {
      guard case .string(let label)? = received.record.attribute("log.label"),
        label.hasPrefix("agent."),
        case .string(let text)? = received.record.attribute("seq"), let seq = Int(text)
      else { continue }
      counts[seq, default: 0] += 1
    }
    return counts
  }

  /// The spool in `directory` (opened again, retrying while a process that just ended still
  /// holds it): whether every record left it, and what its forwarding outbox still holds.
  static func spoolState(_ directory: String) async throws -> (
    empty: Bool, pending: Int, parked: [OutboxEntry<SpoolRange>]
  ) {
    let spool = try openSpool(directory)
    // Empty of what the app wrote: the spool's own events written after the last drain (at
    // close) may remain.
    let left = try spool.logs.entries(from: spool.logs.lowWaterMark + 1)
    let empty =
      left.allSatisfy { $0.record?.label == LogSpool.eventLabel }
      && spool.metrics.lowWaterMark == spool.metrics.lastSequence
    // The forwarding outbox, read while the spool (whose lock keeps any agent out) is open.
    let outbox = try await Outbox.open(
      directory: StorePath.join(directory, Forwarder.outboxFolder), fileSystem: PosixFileSystem(),
      codec: SpoolRangeFormat.codec)
    let pending = await outbox.pending.count
    let parked = await outbox.parked
    try await outbox.close()
    try spool.close()
    return (empty, pending, parked)
  }

  /// Opens the spool in `directory`, retrying for up to 10 s while it is `.locked` (a process
  /// started meanwhile shares this one's descriptors until it runs its program).
  static func openSpool(_ directory: String) throws(StoreError) -> TelemetrySpool {
    var attempts = 0
    while true {
      do throws(StoreError) {
        return try TelemetrySpool.open(at: directory)
      } catch  where error.code == .locked && attempts < 500 {
        attempts += 1
        usleep(20_000)
      }
    }
  }

  /// The collector's `GET /stats` document.
  static func stats(_ endpoint: String) async throws -> [String: Any] {
    let response = try await DefaultTransport().send(
      TransportRequest(url: endpoint + "/stats", method: "GET", body: []))
    let parsed = try JSONSerialization.jsonObject(with: Data(response.body))
    guard let document = parsed as? [String: Any] else { throw EndToEndFailure("no stats") }
    return document
  }
}
