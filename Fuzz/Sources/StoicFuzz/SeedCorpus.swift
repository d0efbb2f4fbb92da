#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes every target's seeds as files `<directory>/<target>/seed-<n>`, the corpus kept in the
/// repository (`Fuzz/Corpus`); `scripts/fuzz --seeds` rewrites it.
enum SeedCorpus {
  static func write(into directory: String) -> Int32 {
    for target in FuzzTargets.all {
      let folder = directory + "/" + target.name
      mkdir(directory, 0o755)
      mkdir(folder, 0o755)
      for (index, seed) in target.seeds().enumerated() {
        let path = folder + "/seed-\(index)"
        guard let file = fopen(path, "wb") else {
          print("cannot write \(path)")
          return 1
        }
        let written = seed.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
        fclose(file)
        guard written == seed.count else {
          print("cannot write \(path)")
          return 1
        }
      }
      print("\(target.name): \(target.seeds().count) seeds")
    }
    return 0
  }
}
