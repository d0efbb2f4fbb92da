/// Why a power-cut step could not run: a command failed, a file could not be read or written,
/// the workload misbehaved. A finding about the store is a violation in a
/// ``PowerCutVerdict``, never one of these.
package struct PowerCutError: Error, CustomStringConvertible, Sendable {
  /// What went wrong, with the command and its output where there was one.
  package let description: String

  /// An error saying `description`.
  package init(_ description: String) {
    self.description = description
  }
}
