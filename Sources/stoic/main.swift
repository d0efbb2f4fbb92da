#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `stoic`: the command-line tool over Stoic's storage.
let arguments = Array(CommandLine.arguments.dropFirst())
do {
  let command = try CommandLineParser.parse(arguments)
  exit(command.run())
} catch let error as UsageError {
  Console.error("stoic: \(error.message)")
  Console.error("Run 'stoic help' for usage.")
  exit(64)  // EX_USAGE
}
