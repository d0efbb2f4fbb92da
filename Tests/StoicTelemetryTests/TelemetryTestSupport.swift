import Foundation
import StoicStore
import Synchronization

@testable import StoicTelemetry

/// Values the tests read from the environment (budgets for longer runs).
enum EnvironmentValue {
  /// The integer in the variable `name`, or `nil`.
  static func integer(_ name: String) -> Int? {
    ProcessInfo.processInfo.environment[name].flatMap { Int($0) }
  }
}

/// Collects events for assertions.
final class EventLog: Sendable {
  private let storage = SleepingLock<[StoreEvent]>([])
  var sink: EventSink { EventSink { event in self.storage.withLock { $0.append(event) } } }
  var events: [StoreEvent] { storage.withLock { $0 } }
  func named(_ definition: EventDefinition) -> [StoreEvent] {
    events.filter { $0.name == definition.name }
  }
}

/// A check that failed outside a crash context.
struct CheckFailure: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}

/// A directory made with `mkdtemp` under `/tmp` for one test, removed with all it holds.
enum ScratchDirectory {
  /// Makes a fresh directory, passes its path to `body`, and removes it afterwards.
  static func with<Result>(_ body: (String) throws -> Result) throws -> Result {
    var template = Array("/tmp/stoic-telemetry-XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else {
      throw CheckFailure("mkdtemp failed with errno \(errno)")
    }
    let path = String(cString: made)
    defer { try? FileManager.default.removeItem(atPath: path) }
    return try body(path)
  }
}
