#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The file every exploration appends a one-line summary of its ``CrashReport`` to, when the
/// environment variable `STOIC_CRASH_REPORT` names one: how a run of many suites (such as
/// `scripts/verify-deep`) tells what each exploration covered.
///
/// Each line holds tab-separated fields, in this order:
///
/// | field | meaning |
/// |---|---|
/// | name | ``name`` when set, else the file and function that called `explore` |
/// | points | crash points visited |
/// | total | crash points of the operation |
/// | images | images built (``CrashReport/imagesBuilt``) |
/// | distinct | images recovered and checked (``CrashReport/imagesChecked``) |
/// | recovery | of those, from crashed recoveries |
/// | recoveryPoints | recovery crash points explored |
/// | violations | violations found |
/// | seconds | the exploration's time |
/// | detected | seconds to the first violation, or `-` |
/// | deadline | `1` when the deadline stopped it, else `0` |
///
/// Each line is written with one `write` to a file opened for appending, so explorations
/// running side by side do not mix their lines. A file that cannot be opened is skipped: the
/// log never fails an exploration.
public enum CrashReportLog {
  /// The name the explorations started in this task give their lines (for example the
  /// defect a mutation check switches on), instead of their caller's file and function.
  @TaskLocal public static var name: String?

  /// The field names, in the order of a line's fields.
  public static let fields = [
    "name", "points", "total", "images", "distinct", "recovery", "recoveryPoints",
    "violations", "seconds", "detected", "deadline",
  ]

  /// Appends `report`'s line when `STOIC_CRASH_REPORT` is set.
  static func append(_ report: CrashReport, caller: String) {
    guard let path = TestEnvironment.value("STOIC_CRASH_REPORT"), !path.isEmpty else { return }
    let line = Self.line(report, name: name ?? caller)
    let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { return }
    defer { close(descriptor) }
    var bytes = Array(line.utf8)
    bytes.append(UInt8(ascii: "\n"))
    _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
  }

  /// The line for `report`, without its newline; tabs and newlines in `name` become spaces.
  static func line(_ report: CrashReport, name: String) -> String {
    let cleanName = String(
      name.unicodeScalars.map { $0 == "\t" || $0 == "\n" || $0 == "\r" ? " " : Character($0) })
    let fields: [String] = [
      cleanName, "\(report.crashPointsVisited)", "\(report.crashPoints)", "\(report.imagesBuilt)",
      "\(report.imagesChecked)", "\(report.recoveryImagesChecked)",
      "\(report.recoveryCrashPointsExplored)", "\(report.violations.count)",
      CrashReport.seconds(report.elapsed),
      report.firstViolationAfter.map(CrashReport.seconds) ?? "-",
      report.stoppedAtDeadline ? "1" : "0",
    ]
    return fields.joined(separator: "\t")
  }
}
