import Foundation

/// What every scenario gets: sizes, repetitions, a place for files, and progress output.
struct BenchContext {
  let quick: Bool
  /// Full sizes (`--large`): the 1 GiB backlog and spool of `forwarding` and `query`.
  let large: Bool
  let runs: Int
  /// The benchmark's own directory (removed at the end of the run).
  let root: String
  /// `--otelcol`: the pipeline scenario's peer binary, when given.
  var otelcol: String? = nil

  /// Creates an empty directory under ``root`` named after `label`, runs `body` in it, and
  /// removes it afterwards.
  func inFreshDirectory<Value>(_ label: String, _ body: (String) throws -> Value) throws -> Value {
    let path = try makeDirectory(label)
    defer { remove(path) }
    return try body(path)
  }

  /// Creates an empty directory under ``root``; the caller removes it with ``remove(_:)``.
  func makeDirectory(_ label: String) throws -> String {
    let path = root + "/" + label
    remove(path)
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }

  func remove(_ path: String) {
    try? FileManager.default.removeItem(atPath: path)
  }

  /// A progress line on standard error (standard output carries the report).
  func progress(_ message: String) {
    FileHandle.standardError.write(Data(("  " + message + "\n").utf8))
  }
}
