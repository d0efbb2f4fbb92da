/// What a ``LogSpool`` does when its records reach ``LogSpoolOptions/byteLimit``. Every record
/// dropped is counted (reason ``SpoolDropReason/quota``).
public enum LogSpoolFullPolicy: Sendable, Hashable {
  /// Remove the oldest whole segments (records not yet acknowledged by the forwarder) to make
  /// room; the default. The removal runs in the background, started before the limit is
  /// reached; a record that would still cross the limit (records arrive faster than segments
  /// can be removed) is dropped and counted.
  case dropOldest
  /// Keep what is stored and drop each new record while the spool is full.
  case dropNewest
  /// Make the log call wait, at most `timeout`, for room (records acknowledged and dropped by
  /// the forwarder, the age limit, compression of sealed segments); then drop the record.
  case block(timeout: Duration)
}
