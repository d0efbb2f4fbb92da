/// Every workload the suite cuts, by name.
package enum PowerCutWorkloads {
  /// The workloads, real code first, then the controls.
  package static let all: [any PowerCutWorkload] = [
    JournalWorkload(
      name: "journal-always", summary: "journal appends, sync policy always",
      syncPolicy: .always),
    JournalWorkload(
      name: "journal-group-commit", summary: "journal appends from 4 threads, group commit",
      syncPolicy: .groupCommit(maxDelay: .microseconds(500), maxRecords: 32), appenders: 4),
    JournalWorkload(
      name: "journal-every-records", summary: "journal appends from 2 threads, a sync every 8",
      syncPolicy: .everyRecords(8), appenders: 2),
    JournalWorkload(
      name: "journal-interval", summary: "journal appends from 2 threads, a sync every 5 ms",
      syncPolicy: .interval(.milliseconds(5)), appenders: 2),
    JournalWorkload(
      name: "journal-durable-appends",
      summary: "positional journal appends from 2 threads, every 4th durable, policy never",
      syncPolicy: .never, appenders: 2, durableEvery: 4, mappedAppends: false),
    JournalWorkload(
      name: "journal-snapshots", summary: "journal appends with snapshots and drops",
      syncPolicy: .always, compacts: true),
    OutboxWorkload(),
    GenerationFileWorkload(
      name: "atomic-file", summary: "AtomicFile generations", writer: .atomicFile),
    SettingsWorkload(),
    TelemetryLogsWorkload(
      name: "telemetry-logs",
      summary: "log spool records from 2 threads, every third at the durable level, flushes"),
    TelemetryMetricsWorkload(
      name: "telemetry-metrics", summary: "a counter, a gauge and a histogram, flushed"),
    TelemetrySpansWorkload(
      name: "telemetry-spans",
      summary: "spans started and ended, every fifth left open, every third end an error, flushes"),
    ForwarderWorkload(),
    JournalWorkload(
      name: "control-unsynced-append",
      summary: "control: journal appends claimed durable with no sync (policy never)",
      syncPolicy: .never, claimsUnsyncedAppends: true, segmentSize: 8 << 20),
    GenerationFileWorkload(
      name: "control-unsynced-rename",
      summary: "control: generations renamed into place without a directory sync",
      writer: .renameWithoutDirectorySync),
    TelemetrySpansWorkload(
      name: "control-span-no-durable-sync",
      summary: "control: error span ends returned without their sync (mutation)",
      skipsDurableSync: true),
    TelemetryLogsWorkload(
      name: "control-log-no-durable-sync",
      summary: "control: durable-level log records returned without their sync (mutation)",
      skipsDurableSync: true),
    TelemetryMetricsWorkload(
      name: "control-live-metrics",
      summary: "control: metrics rounds claimed from the live file, never flushed",
      claimsLiveValues: true),
  ]

  /// The workload named `name`.
  package static func named(_ name: String) -> (any PowerCutWorkload)? {
    all.first { $0.name == name }
  }
}
