import StoicStore
import StoicTelemetry

// The child process of the metrics spool's SIGKILL test: it opens the spool at the directory
// given as its first argument and, until it is killed, increments a counter and records a
// histogram value, appending one byte to the acknowledgement file (second argument) after each
// call returned: `C` after a counter increment, `H` after a histogram recording. A write to a
// file is in the kernel when it returns, so after the kill the file says exactly which calls
// had returned. The spool flushes every few milliseconds, so kills also land in flushes.
//
// Exit statuses (a parent notices them instead of a kill): 2 for bad arguments, 3 when the spool
// or the acknowledgement file cannot be opened, 4 when an acknowledgement cannot be written.
#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

let arguments = CommandLine.arguments
guard arguments.count == 3 else { exit(2) }
let acknowledgements = open(arguments[2], O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
guard acknowledgements >= 0 else { exit(3) }
let options = MetricsOptions(
  flushInterval: .milliseconds(3), liveFileSize: 32 << 10,
  journal: JournalOptions(syncPolicy: .never, segmentSize: 64 << 10))
guard let spool = try? MetricsSpool.open(directory: arguments[1], options: options) else {
  exit(3)
}
let counter = spool.counter(label: "kill.counter", dimensions: [("process", "child")])
let histogram = spool.histogram(label: "kill.histogram", bounds: [5, 10, 20])

/// Appends the acknowledgement byte `byte`.
func acknowledge(_ byte: UInt8) {
  var value = byte
  guard write(acknowledgements, &value, 1) == 1 else { exit(4) }
}

while true {
  counter.increment()
  acknowledge(UInt8(ascii: "C"))
  histogram.record(7)
  acknowledge(UInt8(ascii: "H"))
}
