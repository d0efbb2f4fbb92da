import Dispatch

extension Duration {
  /// The duration in whole nanoseconds, 0 for a negative one and `UInt64.max` for one too long
  /// to count (a caller's duration can be anything; converting never traps).
  var clampedNanoseconds: UInt64 {
    let (seconds, attoseconds) = components
    guard seconds >= 0, attoseconds >= 0 else { return 0 }
    let whole = UInt64(seconds).multipliedReportingOverflow(by: 1_000_000_000)
    guard !whole.overflow else { return UInt64.max }
    let total = whole.partialValue.addingReportingOverflow(UInt64(attoseconds / 1_000_000_000))
    return total.overflow ? UInt64.max : total.partialValue
  }

  /// The dispatch time this long after now, clamped as ``clampedNanoseconds``.
  var fromNow: DispatchTime {
    .now() + .nanoseconds(Int(clamping: clampedNanoseconds))
  }
}
