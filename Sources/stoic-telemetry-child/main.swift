// `stoic-telemetry-child`: the child process of the telemetry spool's kill tests.
//
//     stoic-telemetry-child <spool directory> <run number> [pause]
//
// Opens the spool, then logs records through `LogSpool` until it is killed: record `i` of run
// `r` has the message `run r record i` and metadata naming both, every 16th at the `error`
// level (durable before the call returns). After each log call returns, it writes `i` and a
// newline to standard output with one `write(2)`: the acknowledgement the parent checks against
// what the spool holds after the kill. With `pause` (microseconds), it sleeps that long after
// each record, so a parent that needs it alive for minutes (under a sanitizer, on a loaded
// machine) does not see it stop at the spool's byte limit. Exits with 2 on bad arguments, 3 if
// the spool cannot be opened, 4 if a record is dropped.
//
// With `STOIC_CHILD_SPANS=1` in its environment it writes spans instead, into the spool's span
// spool: span `i` of run `r` (trace id `r`/`1`, span id `r << 32 | i + 1`, parent the run's
// first span) is started, acknowledged as `s i`, then, unless `i % 3 == 2`, ended (status error
// every 8th, durable at once) and acknowledged as `e i`: a third of the spans are left open,
// for the next open to end as unfinished.

import StoicTelemetry

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

let arguments = CommandLine.arguments
guard arguments.count == 3 || arguments.count == 4, let run = Int(arguments[2]),
  let pause = arguments.count == 4 ? UInt32(arguments[3]) : 0
else { exit(2) }
var options = TelemetryOptions()
// Small segments, so kills land in rolls, seals and compressions too.
options.logs.segmentSize = 64 << 10
let spans = getenv("STOIC_CHILD_SPANS").map { String(cString: $0) } == "1"
if spans {
  options.spans = options.logs
}
guard let telemetry = try? TelemetrySpool.open(at: arguments[1], options: options) else { exit(3) }

/// Writes `text` and a newline to standard output with one `write(2)`, or exits with 5.
func acknowledge(_ text: String) {
  let line = Array("\(text)\n".utf8)
  guard line.withUnsafeBytes({ write(1, $0.baseAddress, $0.count) }) == line.count else { exit(5) }
}

if spans, let spool = telemetry.spans {
  var index = 0
  while true {
    let start = SpanStart(
      traceID: TraceID(high: UInt64(run), low: 1),
      spanID: SpanID(UInt64(run) << 32 | UInt64(index + 1)),
      parentSpanID: SpanID(index == 0 ? 0 : UInt64(run) << 32 | 1),
      name: "run \(run) span \(index)",
      startTimeNanoseconds: Int64(index))
    guard spool.start(start) != nil else { exit(4) }
    acknowledge("s \(index)")
    if index % 3 != 2 {
      let end = SpanEnd(
        start: start, endTimeNanoseconds: Int64(index + 1),
        attributes: ["index": .int(Int64(index))],
        status: SpanEnd.Status(code: index % 8 == 7 ? .error : .ok))
      guard spool.end(end) != nil else { exit(4) }
      acknowledge("e \(index)")
    }
    index += 1
    if pause > 0 { usleep(pause) }
  }
}

var index = 0
while true {
  let sequence = telemetry.logs.log(
    level: index % 16 == 15 ? .error : .info, label: "child", message: "run \(run) record \(index)",
    metadata: [
      "run": .stringConvertible(String(run)), "index": .stringConvertible(String(index)),
      "context": .dictionary(["even": .string(String(index % 2 == 0))]),
    ])
  guard sequence != nil else { exit(4) }
  acknowledge(String(index))
  index += 1
  if pause > 0 { usleep(pause) }
}
