import Foundation

/// The threads of a workload's concurrent appenders.
enum PowerCutAppenders {
  /// Runs `body` for appenders `0..<count`, each on a thread of its own, waits for all of them,
  /// and throws the first failure, naming its appender.
  static func run(_ count: Int, _ body: @escaping @Sendable (Int) throws -> Void) throws {
    let failure = PowerCutShared<String?>(nil)
    let done = DispatchGroup()
    for appender in 0..<count {
      done.enter()
      let thread = Thread {
        defer { done.leave() }
        do {
          try body(appender)
        } catch {
          failure.update { $0 = $0 ?? "appender \(appender): \(error)" }
        }
      }
      thread.start()
    }
    done.wait()
    if let failure = failure.value { throw PowerCutError(failure) }
  }
}
