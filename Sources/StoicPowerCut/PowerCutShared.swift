import StoicStore
import Synchronization

/// A value shared with closures that run on other threads (a `Mutex` cannot be captured by an
/// escaping closure; this reference can).
package final class PowerCutShared<Value: Sendable>: Sendable {
  private let storage: SleepingLock<Value>

  /// A shared `value`.
  package init(_ value: Value) {
    storage = SleepingLock(value)
  }

  /// The value now.
  package var value: Value { storage.withLock { $0 } }

  /// Changes the value under the lock.
  package func update(_ change: (inout Value) -> Void) {
    storage.withLock { change(&$0) }
  }
}
