import Foundation
import StoicCLI
import StoicForwarding
import StoicSettings
import StoicStore
import StoicTelemetry
import Testing

/// `stoic events`: the whole catalog of every layer.
@Suite("stoic events")
struct EventsCommandTests {
  /// Every layer's catalog, each once.
  static let layers = [
    StoreEvents.catalog, SettingsEvents.catalog, SpoolEvents.catalog, ForwardingEvents.catalog,
  ]

  @Test("the tool's catalog is every layer's, in order, nothing else")
  func catalog() {
    #expect(StoicEventCatalog.all.entries == Self.layers.flatMap(\.entries))
    #expect(
      Set(StoicEventCatalog.all.entries.map(\.layer)) == [
        "store", "settings", "spool", "forwarding",
      ])
  }

  @Test("the table lists every event with its level, fields and meaning")
  func table() throws {
    let outcome = try StoicProcess.run(["events"])
    #expect(outcome.status == 0)
    let lines = outcome.output.split(separator: "\n")
    #expect(lines.first?.hasPrefix("EVENT") == true)
    #expect(lines.count == StoicEventCatalog.all.entries.count + 1, "one line each when piped")
    for entry in StoicEventCatalog.all.entries {
      let line = try #require(lines.first { $0.hasPrefix(entry.name + " ") }, "\(entry.name)")
      #expect(line.contains(" \(entry.level) "))
      #expect(line.contains(entry.fields.joined(separator: ",")))
      #expect(line.hasSuffix(entry.summary))
    }
  }

  @Test("--json lists the same events with every detail")
  func json() throws {
    let outcome = try StoicProcess.run(["events", "--json"])
    #expect(outcome.status == 0)
    let document =
      try JSONSerialization.jsonObject(with: Data(outcome.output.utf8)) as? [String: Any]
    let events = try #require(document?["events"] as? [[String: Any]])
    #expect(events.count == StoicEventCatalog.all.entries.count)
    for (event, entry) in zip(events, StoicEventCatalog.all.entries) {
      #expect(event["name"] as? String == entry.name)
      #expect(event["layer"] as? String == String(entry.layer))
      #expect(event["level"] as? String == entry.level.description)
      #expect(event["summary"] as? String == entry.summary)
      #expect(event["fields"] as? [String] == entry.fields)
    }
  }
}
