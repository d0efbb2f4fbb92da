import Foundation

/// The Python the tests run: the virtual environment `./scripts/bootstrap` makes at
/// `.build/venv`, or the interpreter `STOIC_PYTHON` names. Never a `python3` from `PATH`, so a
/// machine that happens to have the packages system-wide cannot pass a fresh clone by luck.
public enum TestPython {
  /// The environment variable that names another interpreter: `STOIC_PYTHON`.
  public static let environmentVariable = "STOIC_PYTHON"

  /// The package's root directory (this file is `Tests/StoicTestSupport/TestPython.swift`).
  public static let packageRoot: String = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

  /// The interpreter's path: `$STOIC_PYTHON` when set, else `.build/venv/bin/python3`.
  public static var executable: String {
    if let named = ProcessInfo.processInfo.environment[environmentVariable], !named.isEmpty {
      return named
    }
    return packageRoot + "/.build/venv/bin/python3"
  }

  /// Runs the interpreter with `arguments` (and `environment` added to this process's); its
  /// exit status and its output and errors together. Throws ``TestPythonMissing`` when there
  /// is no interpreter.
  public static func run(_ arguments: [String], environment: [String: String] = [:]) throws
    -> (status: Int32, output: String)
  {
    let path = executable
    guard FileManager.default.isExecutableFile(atPath: path) else {
      throw TestPythonMissing(path: path)
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: output, as: UTF8.self))
  }

  /// Checks that the interpreter imports `modules`; throws ``TestPythonMissing`` (which says
  /// to run `./scripts/bootstrap`) when it is missing or one of them is not installed.
  public static func require(_ modules: [String]) throws {
    let probe = try run(["-c", "import " + modules.joined(separator: ", ")])
    guard probe.status == 0 else {
      throw TestPythonMissing(path: executable, detail: probe.output)
    }
  }

  /// The directory of installed packages (`site-packages`) of the interpreter.
  public static func sitePackages() throws -> String {
    let run = try run(["-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"])
    guard run.status == 0 else { throw TestPythonMissing(path: executable, detail: run.output) }
    return run.output.trimmingCharacters(in: .whitespacesAndNewlines)
  }
}

/// The tests' Python is missing or lacks a package: run `./scripts/bootstrap`.
public struct TestPythonMissing: Error, CustomStringConvertible {
  /// The interpreter that was looked for.
  public var path: String
  /// What the interpreter said, if it ran.
  public var detail = ""

  /// Creates the error for the interpreter at `path`.
  public init(path: String, detail: String = "") {
    self.path = path
    self.detail = detail
  }

  /// What to do about it.
  public var description: String {
    let problem =
      detail.isEmpty
      ? "the tests' Python \(path) does not exist"
      : "the tests' Python \(path) lacks a package: \(detail.trimmingCharacters(in: .whitespacesAndNewlines))"
    return """
      \(problem); run ./scripts/bootstrap (it installs the pinned packages of \
      scripts/requirements.txt into .build/venv), or set \(TestPython.environmentVariable) to \
      an interpreter that has them
      """
  }
}
