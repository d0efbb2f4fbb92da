/// Deliberate defects for the crash tests' mutation checks; empty in real use.
package enum LogSpoolMutation: Sendable, Hashable {
  /// Records at or above the durable level return without waiting for their sync.
  case noDurableSync
  /// A quota drop removes the records without first recording the drop as under way.
  case dropWithoutIntent
}
