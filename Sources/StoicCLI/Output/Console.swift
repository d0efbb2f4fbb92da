import StoicStore
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where a command writes: results to standard output (buffered, flushed before anything goes
/// to standard error and at the end), problems and the progress line to standard error.
public final class Console: Sendable {
  /// Where the output goes.
  public let terminal: Terminal
  /// Paint for standard output.
  public let style: Style
  /// Paint for standard error.
  public let errorStyle: Style
  /// The progress line of long work (shown only on a terminal).
  public let progress: ProgressLine
  private let buffer = SleepingLock<[UInt8]>([])

  /// A console for `terminal`.
  public init(terminal: Terminal) {
    self.terminal = terminal
    style = Style(enabled: terminal.colourOnOutput)
    errorStyle = Style(enabled: terminal.colourOnError)
    progress = ProgressLine(enabled: terminal.showsProgress)
  }

  /// Writes one line of results, its control characters (a line break among them) escaped
  /// (`TerminalText`) but for the colours of ``style``.
  public func line(_ text: String = "") {
    output(TerminalText.controlsEscaped(text, keepingStyle: style.enabled))
  }

  /// Writes JSON text as it is, in one line or several: ``JSONValue`` has escaped the control
  /// characters of its strings already, and its line breaks are the document's own.
  public func json(_ text: String) {
    output(text)
  }

  private func output(_ text: String) {
    let full = buffer.withLock { bytes -> Bool in
      bytes.append(contentsOf: text.utf8)
      bytes.append(UInt8(ascii: "\n"))
      return bytes.count >= 64 << 10
    }
    if full { flush() }
  }

  /// Writes several lines of results.
  public func lines(_ texts: [String]) {
    for text in texts { line(text) }
  }

  /// Writes a line to standard error, after the results written so far, clearing the progress
  /// line first; its control characters (a line break among them) escaped (`TerminalText`).
  public func error(_ text: String) {
    flush()
    progress.clear()
    let line = TerminalText.controlsEscaped(text, keepingStyle: false)
    DescriptorOutput.writeAll(STDERR_FILENO, Array((line + "\n").utf8))
  }

  /// Writes the buffered results to standard output.
  public func flush() {
    let pending = buffer.withLock { bytes -> [UInt8] in
      defer { bytes.removeAll(keepingCapacity: true) }
      return bytes
    }
    guard !pending.isEmpty else { return }
    progress.clear()
    DescriptorOutput.writeAll(STDOUT_FILENO, pending)
  }
}
