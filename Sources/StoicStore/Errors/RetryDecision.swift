/// Whether trying an operation again, unchanged, could succeed.
///
/// The store classifies every ``StoreError`` so that callers (and the outbox's retry loop)
/// never retry what cannot change: a full disk, a read-only file system, corruption. See
/// ``StoreError/retryDecision``.
public enum RetryDecision: Sendable, Hashable {
  /// A momentary condition (`EINTR`, `EAGAIN`, `EBUSY`, `EMFILE`, `ENFILE`, `ENOMEM`, a held
  /// lock): the same call may succeed later.
  case retry
  /// Nothing about a retry changes the outcome; the caller must act (free space, fix
  /// permissions, reopen after `EIO`).
  case stop
}
