/// Why records were dropped: each reason has its own persistent counter in
/// ``SpoolDropCounters``.
public enum SpoolDropReason: Int, Sendable, Hashable, CaseIterable, CustomStringConvertible {
  /// The spool was at its byte limit (``LogSpoolOptions/byteLimit``): the oldest records were
  /// removed, or a new one was refused, as ``LogSpoolOptions/whenFull`` says.
  case quota = 0
  /// The records were older than ``LogSpoolOptions/maximumAge``.
  case age = 1
  /// Writing failed (disk full, an I/O error, a journal poisoned by a failed sync), or the
  /// spool was not writable until it recovered.
  case diskError = 2
  /// The record could not be encoded (larger than the journal's largest record).
  case encoding = 3

  /// The name in events and metrics: `quota`, `age`, `disk_error`, `encoding`.
  public var description: String {
    switch self {
    case .quota: "quota"
    case .age: "age"
    case .diskError: "disk_error"
    case .encoding: "encoding"
    }
  }
}
