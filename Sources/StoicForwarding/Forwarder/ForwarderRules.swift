/// The rules the forwarder keeps between its cursors, its outbox and the spool, labelled as the
/// journal's segment rules are, checked after each step in debug builds (`assert`) and by the
/// tests with inputs that break each one.
///
/// - **@F1** Batches are formed in order: a stream's batches recorded in one step follow each
///   other from the stream's cursor with no gap or overlap (`first` of each is one past `last`
///   of the one before, the first starts at the cursor), and the cursor then stands one past the
///   last of them. The cursor moves only once the outbox write recording them has returned
///   (durable), so a crash before it forms the same batches again.
/// - **@F2** A cursor never goes back.
/// - **@F3** Records leave the spool only through an acknowledged batch: a stream is released
///   through a sequence below its cursor and below the first sequence of every batch of the
///   stream still pending or parked.
enum ForwarderRules {
  /// A broken rule: its label and what broke it.
  struct Violation: Error, Equatable, CustomStringConvertible {
    /// `@F1`, `@F2` or `@F3`.
    var rule: String
    /// What was found.
    var detail: String

    var description: String { "\(rule): \(detail)" }
  }

  /// @F1 and @F2 for one forming step: `before` the cursors when the step recorded `formed`,
  /// `after` the cursors it left.
  static func checkForming(
    before: [SpoolStream: UInt64], formed: [SpoolRange], after: [SpoolStream: UInt64]
  ) -> Violation? {
    for stream in SpoolStream.allCases {
      let start = before[stream] ?? 1
      let end = after[stream] ?? 1
      guard end >= start else {
        return Violation(rule: "@F2", detail: "the \(stream) cursor went from \(start) to \(end)")
      }
      var expected = start
      for range in formed where range.stream == stream {
        guard range.first == expected, range.last >= range.first else {
          return Violation(
            rule: "@F1", detail: "\(range) formed where \(stream) \(expected) was next")
        }
        expected = range.last &+ 1
      }
      guard end == expected else {
        return Violation(
          rule: "@F1", detail: "the \(stream) cursor at \(end) after batches up to \(expected)")
      }
    }
    return nil
  }

  /// @F3 for releasing `stream` through `through`, with its `cursor` and the batches `held`
  /// (pending or parked, of every stream).
  static func checkRelease(
    _ stream: SpoolStream, through: UInt64, cursor: UInt64, held: [SpoolRange]
  ) -> Violation? {
    guard through < cursor else {
      return Violation(
        rule: "@F3", detail: "\(stream) released through \(through), its cursor at \(cursor)")
    }
    if let blocking = held.first(where: { $0.stream == stream && through >= $0.first }) {
      return Violation(
        rule: "@F3", detail: "\(stream) released through \(through) past \(blocking), still held")
    }
    return nil
  }
}
