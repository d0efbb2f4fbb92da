// The power-cut suite's workload program: runs a named workload on a directory of a mounted
// image (`run`), checks what a cut left (`verify`), and checks a kept cut again (`replay`).
import Foundation
import StoicPowerCut

let usage = """
  usage: stoic-powercut-workload run --workload NAME --directory DIR --acks FILE [--seed N]
         stoic-powercut-workload verify --workload NAME --directory DIR --acks FILE
         stoic-powercut-workload replay --file-system ext4|xfs|btrfs --workload NAME --path DIR
                                        --image FILE --acks FILE
         stoic-powercut-workload list

  run      runs the workload in DIR, appending to FILE what each call claimed durable once it
           returned; it runs until killed (the suite stops it, copies the image, kills it)
  verify   opens the store in DIR (its recovery) and checks every claim in FILE; prints
           `violation: ...` and `fact: ...` lines
  replay   (root) attaches and mounts a copy of a kept cut's image and runs verify on DIR in
           it; exits with status 1 when a claim does not hold
  list     lists the workloads
  """

/// Prints `message` and the usage to standard error and exits with status 64.
func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data("stoic-powercut-workload: \(message)\n\(usage)\n".utf8))
  exit(64)
}

/// The `--name value` options after the command.
func options(_ arguments: ArraySlice<String>) -> [String: String] {
  var options: [String: String] = [:]
  var rest = arguments
  while let name = rest.popFirst() {
    guard name.hasPrefix("--"), let value = rest.popFirst() else { fail("unexpected \(name)") }
    options[String(name.dropFirst(2))] = value
  }
  return options
}

/// The value of a required option.
func required(_ options: [String: String], _ name: String) -> String {
  guard let value = options[name] else { fail("--\(name) is required") }
  return value
}

/// The workload named by `--workload`.
func workload(_ options: [String: String]) -> any PowerCutWorkload {
  let name = required(options, "workload")
  guard let workload = PowerCutWorkloads.named(name) else { fail("no workload named \(name)") }
  return workload
}

/// Exits when the process that started this one is gone, so a suite that dies does not leave
/// a workload running on its mount.
func exitWithParent() {
  let parent = getppid()
  let watcher = Thread {
    while getppid() == parent { usleep(100_000) }
    exit(70)
  }
  watcher.start()
}

let arguments = CommandLine.arguments.dropFirst()
switch arguments.first {
case "run":
  exitWithParent()
  let options = options(arguments.dropFirst())
  let workload = workload(options)
  let seed = options["seed"].flatMap { UInt64($0) } ?? 0
  do {
    let writer = try PowerCutAcknowledgementWriter(path: required(options, "acks"))
    try await workload.run(
      directory: required(options, "directory"), acknowledgements: writer, seed: seed)
  } catch {
    FileHandle.standardError.write(Data("workload \(workload.name) failed: \(error)\n".utf8))
    exit(1)
  }
  // Its volume spent, the workload waits to be cut.
  while true { sleep(3600) }
case "verify":
  let options = options(arguments.dropFirst())
  let verdict = await workload(options).verify(
    directory: required(options, "directory"),
    acknowledgements: PowerCutAcknowledgements(path: required(options, "acks")))
  print(verdict.text, terminator: "")
case "replay":
  let options = options(arguments.dropFirst())
  let name = required(options, "file-system")
  guard let fileSystem = PowerCutFileSystem(rawValue: name) else { fail("no file system \(name)") }
  if let missing = fileSystem.missingRequirement { fail("cannot replay: \(missing)") }
  let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
  do {
    let scratch = try PowerCutScratch.acquire()
    let verdict = try PowerCutCheck.check(
      image: required(options, "image"), fileSystem: fileSystem,
      workload: workload(options).name, path: required(options, "path"),
      acknowledgements: required(options, "acks"), executable: executable, scratch: scratch)
    print(verdict.text, terminator: "")
    exit(verdict.violations.isEmpty ? 0 : 1)
  } catch {
    FileHandle.standardError.write(Data("replay failed: \(error)\n".utf8))
    exit(2)
  }
case "list":
  for workload in PowerCutWorkloads.all {
    print("\(workload.name)\(workload.isControl ? " (control)" : ""): \(workload.summary)")
  }
default:
  fail(arguments.first.map { "unknown command \($0)" } ?? "a command is required")
}
