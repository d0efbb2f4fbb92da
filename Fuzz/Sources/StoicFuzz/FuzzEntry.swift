import CFuzzDriver

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The program's entry point. SwiftPM links an executable's entry point as `<Module>_main`, so
/// this is `main`; it hands the process to libFuzzer's driver with the selected target's
/// callback.
///
/// `stoic-fuzz <target> [libFuzzer flags] [corpus or input files]` fuzzes one target (see
/// ``FuzzTargets``); the target is also read from `STOIC_FUZZ_TARGET`, which the name on the
/// command line sets, so the processes libFuzzer starts itself (merges, minimisation) run the
/// same one. `stoic-fuzz list` prints the targets; `stoic-fuzz seeds <directory>` writes every
/// target's seed corpus into `<directory>/<target>/`.
@_cdecl("StoicFuzz_main")
func stoicFuzzMain(
  _ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>
) -> Int32 {
  var arguments = (0..<Int(argc)).map { argv[$0].map { String(cString: $0) } ?? "" }
  switch arguments.dropFirst().first {
  case "list":
    for target in FuzzTargets.all {
      print("\(target.name)\t\(target.maxLength)\t\(target.summary)")
    }
    return 0
  case "seeds":
    guard arguments.count == 3 else {
      print("usage: stoic-fuzz seeds <directory>")
      return 2
    }
    return SeedCorpus.write(into: arguments[2])
  case let name? where FuzzTargets.named(name) != nil:
    setenv(FuzzTargets.variable, name, 1)
    arguments.remove(at: 1)
  default:
    break
  }
  guard FuzzTargets.selected != nil else {
    let names = FuzzTargets.all.map(\.name).joined(separator: ", ")
    print("usage: stoic-fuzz <target> [libFuzzer flags and inputs]; targets: \(names)")
    return 2
  }
  // libFuzzer keeps the pointers for the life of the process.
  var count = Int32(arguments.count)
  let vector = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(
    capacity: arguments.count + 1)
  for (index, argument) in arguments.enumerated() { vector[index] = strdup(argument) }
  vector[arguments.count] = nil
  var pointer: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = vector
  return LLVMFuzzerRunDriver(&count, &pointer) { data, size in fuzzOneInput(data, size) }
}

/// Runs the selected target on one input. libFuzzer's runtime (whose own `main` the linker
/// leaves out, since `main` is ``stoicFuzzMain(_:_:)``) still refers to this name.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
  FuzzTargets.selected?.run(bytes)
  return 0
}
