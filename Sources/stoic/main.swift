import StoicCLI

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `stoic`: the command-line tool over Stoic's stores; everything it does is in `StoicCLI`.
let status = await StoicCommandLine.main(
  Array(CommandLine.arguments.dropFirst()), environment: Terminal.environment())
exit(status)
