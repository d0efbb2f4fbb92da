import Foundation

do {
  if CommandLine.arguments.dropFirst().first == "--child" {
    try BenchChild.run(Array(CommandLine.arguments.dropFirst(2)))
    exit(0)
  }
  let options = try BenchOptions(arguments: Array(CommandLine.arguments.dropFirst()))
  if options.help {
    print(BenchOptions.usage)
  } else if let directory = options.replayChild {
    try ReplayChild.run(directory: directory, runs: options.runs ?? 1)
  } else {
    try BenchRunner(options: options).run()
  }
} catch {
  FileHandle.standardError.write(Data("stoic-bench: \(error)\n".utf8))
  exit(1)
}
