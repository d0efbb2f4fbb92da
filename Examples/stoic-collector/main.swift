import StoicCollector

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `stoic-collector`: runs the example collector until SIGTERM or SIGINT.

/// Writes a line to standard error (unbuffered, so it shows before an exit).
func printError(_ message: String) {
  let line = "stoic-collector: \(message)\n"
  _ = line.withCString { write(STDERR_FILENO, $0, strlen($0)) }
}

/// Writes a line to standard output at once (a parent process waits for it).
func printLine(_ message: String) {
  let line = message + "\n"
  _ = line.withCString { write(STDOUT_FILENO, $0, strlen($0)) }
}

var environment: [String: String] = [:]
if let token = getenv(CollectorOptions.tokenEnvironmentVariable) {
  environment[CollectorOptions.tokenEnvironmentVariable] = String(cString: token)
}

let arguments: CollectorArguments
do {
  arguments = try CollectorArguments.parse(
    Array(CommandLine.arguments.dropFirst()), environment: environment)
} catch {
  printError(error.message)
  printError("run 'stoic-collector --help' for usage")
  exit(64)
}
if arguments.help {
  printLine(CollectorArguments.usage)
  exit(0)
}

// SIGTERM and SIGINT are taken with sigwait on this thread; block them before any thread
// starts, so every thread inherits the mask and none is interrupted by them.
var stopSignals = sigset_t()
sigemptyset(&stopSignals)
sigaddset(&stopSignals, SIGTERM)
sigaddset(&stopSignals, SIGINT)
pthread_sigmask(SIG_BLOCK, &stopSignals, nil)
signal(SIGPIPE, SIG_IGN)

let collector: Collector
do {
  collector = try Collector.start(arguments.options)
} catch {
  printError("\(error)")
  exit(1)
}
printLine("listening on \(collector.address)")

var received: Int32 = 0
sigwait(&stopSignals, &received)
do {
  try collector.stop()
} catch {
  printError("\(error)")
  exit(1)
}
let stats = collector.stats
printLine("stopped: batches=\(stats.batches) duplicates_suppressed=\(stats.duplicatesSuppressed)")
exit(0)
