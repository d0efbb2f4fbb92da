import StoicStore
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One line of progress on standard error, rewritten in place (`\r`), at most ten times a
/// second, cut to the terminal's width, and cleared before other output: shown only when
/// standard error is a terminal, so piped and redirected runs stay quiet.
public final class ProgressLine: Sendable {
  /// Whether anything is shown.
  public let enabled: Bool
  private let state = SleepingLock<(shown: Bool, last: ContinuousClock.Instant?)>((false, nil))
  private static let interval = Duration.milliseconds(100)

  /// A progress line, shown only when `enabled`.
  public init(enabled: Bool) {
    self.enabled = enabled
  }

  /// Shows `text` unless the line was updated less than a tenth of a second ago.
  public func update(_ text: @autoclosure () -> String) {
    guard enabled else { return }
    let now = ContinuousClock.now
    let due = state.withLock { state -> Bool in
      if let last = state.last, now - last < Self.interval { return false }
      state.last = now
      state.shown = true
      return true
    }
    guard due else { return }
    let width = max(Terminal.columns(STDERR_FILENO) - 1, 10)
    var line = text()
    if line.count > width { line = String(line.prefix(width - 1)) + "…" }
    DescriptorOutput.writeAll(STDERR_FILENO, Array("\r\u{1B}[2K\(line)".utf8))
  }

  /// Removes the line, if one is shown.
  public func clear() {
    guard enabled else { return }
    let shown = state.withLock { state -> Bool in
      defer {
        state.shown = false
        state.last = nil
      }
      return state.shown
    }
    if shown { DescriptorOutput.writeAll(STDERR_FILENO, Array("\r\u{1B}[2K".utf8)) }
  }
}
