import StoicTelemetry
import Testing

@Suite("LogLevel: swift-log's seven levels, ordered, named")
struct LogLevelTests {
  @Test("ordered from trace to critical, each named as swift-log names it and found by name")
  func orderAndNames() {
    let names = LogLevel.allCases.map(\.description)
    #expect(names == ["trace", "debug", "info", "notice", "warning", "error", "critical"])
    #expect(LogLevel.allCases == LogLevel.allCases.sorted())
    for level in LogLevel.allCases { #expect(LogLevel(name: level.description) == level) }
    #expect(LogLevel(name: "fatal") == nil)
    #expect(LogLevel.error > .warning)
  }

  @Test("metadata values describe themselves with sorted keys")
  func metadataDescription() {
    let value = LogMetadataValue.dictionary([
      "b": .array([.string("x"), .stringConvertible("42")]), "a": .string("y"),
    ])
    #expect(value.description == "[a: y, b: [x, 42]]")
  }
}
