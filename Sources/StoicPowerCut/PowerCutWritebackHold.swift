import Foundation

/// Holds the kernel's writeback back while power cuts run, so that nothing reaches an image
/// unless the code under test syncs it: `vm.dirty_expire_centisecs` raised to an hour,
/// `vm.dirty_writeback_centisecs` at 0 (no periodic flusher).
///
/// The values found are written to a file before anything is changed, and put back by
/// ``restore()``. If the process dies while holding (killed, interrupted), a guardian process
/// started with the hold, in a session of its own, puts them back from that file as soon as it
/// sees the process gone; and the next run puts back whatever is still saved first
/// (``restoreLeftover(savedAt:)``).
package struct PowerCutWritebackHold: Sendable {
  /// A sysctl and the value held while cutting.
  package struct Setting: Sendable {
    /// Its file under `/proc/sys`.
    package let path: String
    /// The value written while holding.
    package let held: String
  }

  /// The settings held.
  package static let settings = [
    Setting(path: "/proc/sys/vm/dirty_expire_centisecs", held: "360000"),
    Setting(path: "/proc/sys/vm/dirty_writeback_centisecs", held: "0"),
  ]

  /// Where the values found are saved.
  let savedAt: String
  /// The values found, by path.
  let found: [(path: String, value: String)]

  /// Records the current values (in memory and in the file at `savedAt`), then holds.
  ///
  /// - Throws: ``PowerCutError`` when a value cannot be read or written; whatever was already
  ///   changed is put back first.
  /// - Parameters:
  ///   - savedAt: Where the values found are saved while held.
  ///   - lock: The scratch lock (``PowerCutScratch``), which the guardian takes before it
  ///     restores, so that it never undoes the hold of a run that started after this one died.
  package static func hold(savedAt: String, lock: String) throws(PowerCutError)
    -> PowerCutWritebackHold
  {
    var found: [(path: String, value: String)] = []
    for setting in settings {
      guard let text = PowerCutHost.readText(setting.path) else {
        throw PowerCutError("cannot read \(setting.path)")
      }
      found.append((setting.path, text.trimmingCharacters(in: .whitespacesAndNewlines)))
    }
    // The hold's own mark, so that its guardian watches this hold and not a later one.
    let mark = "# hold \(getpid())-\(UInt64.random(in: 1...UInt64.max))"
    let saved = ([mark] + found.map { "\($0.path) \($0.value)" }).joined(separator: "\n") + "\n"
    try PowerCutHost.writeText(saved, to: savedAt)
    let hold = PowerCutWritebackHold(savedAt: savedAt, found: found)
    do throws(PowerCutError) {
      try startGuardian(savedAt: savedAt, lock: lock, mark: mark)
    } catch {
      try? PowerCutHost.remove(savedAt)
      throw error
    }
    do throws(PowerCutError) {
      for setting in settings { try write(setting.held, to: setting.path) }
    } catch {
      try? hold.restore()
      throw error
    }
    return hold
  }

  /// Puts the values found back and removes the saved file.
  ///
  /// - Throws: ``PowerCutError`` naming every value that could not be put back (the others
  ///   are); the saved file then stays for the next run.
  package func restore() throws(PowerCutError) {
    var failures: [String] = []
    for (path, value) in found {
      do throws(PowerCutError) { try Self.write(value, to: path) } catch {
        failures.append(error.description)
      }
    }
    guard failures.isEmpty else {
      throw PowerCutError("writeback settings not restored: " + failures.joined(separator: "; "))
    }
    try PowerCutHost.remove(savedAt)
  }

  /// Puts back the values a run that died while holding saved at `savedAt`, if it did.
  ///
  /// - Returns: What was restored, for the log (empty when nothing was left).
  package static func restoreLeftover(savedAt: String) throws(PowerCutError) -> [String] {
    guard let text = PowerCutHost.readText(savedAt) else { return [] }
    var found: [(path: String, value: String)] = []
    for line in text.split(separator: "\n") {
      let fields = line.split(separator: " ")
      guard fields.count == 2, settings.contains(where: { $0.path == fields[0] }) else { continue }
      found.append((String(fields[0]), String(fields[1])))
    }
    try PowerCutWritebackHold(savedAt: savedAt, found: found).restore()
    return found.map { "\($0.path) = \($0.value)" }
  }

  /// Starts the guardian: a shell, detached into a session of its own (so an interrupt of
  /// the terminal does not reach it), that waits while this process lives and the saved file
  /// holds this hold's `mark`; if the mark is still there when this process is gone, it
  /// takes the lock and writes the saved values back. It ends as soon as the hold is
  /// restored.
  private static func startGuardian(savedAt: String, lock: String, mark: String)
    throws(PowerCutError)
  {
    let script = """
      held() { grep -qxF "$4" "$2" 2>/dev/null; }
      while kill -0 "$1" 2>/dev/null && held; do sleep 0.5; done
      held || exit 0
      exec 9>>"$3"
      flock 9
      if held; then
        while read -r path value; do
          case "$path" in /proc/sys/*) printf '%s\\n' "$value" > "$path" ;; esac
        done < "$2"
        rm -f "$2"
      fi
      """
    guard let setsid = PowerCutHost.which("setsid") else {
      throw PowerCutError("setsid is not installed")
    }
    try PowerCutHost.spawnDetached([
      setsid, "--fork", "/bin/sh", "-c", script, "guardian", "\(getpid())", savedAt, lock,
      mark,
    ])
  }

  /// Writes a sysctl.
  private static func write(_ value: String, to path: String) throws(PowerCutError) {
    try PowerCutHost.writeText(value + "\n", to: path)
  }
}
