import Foundation
import StoicForwarding
import StoicSettings
import StoicStore
import StoicTelemetry
import Testing

/// Every layer's catalog, as an app that uses the whole stack would combine them.
enum Layers {
  /// Each layer's prefix and its own catalog.
  static let catalogs: [(prefix: String, catalog: EventCatalog)] = [
    ("store.", StoreEvents.catalog),
    ("settings.", SettingsEvents.catalog),
    ("spool.", SpoolEvents.catalog),
    ("forwarding.", ForwardingEvents.catalog),
  ]

  /// The union of every layer's catalog.
  static let combined = EventCatalog(combining: catalogs.map(\.catalog))
}

/// Finds the event names written as string literals in Swift source.
///
/// A name is a literal that opens with a layer's prefix (`"store.`, `"settings.`, …) and runs on in
/// letters, digits, `_` and `.` to its closing quote, or to an interpolation (`"store.\(x)"`,
/// reported as `store.\(…)` so that a name built at run time fails the catalog test). Comment
/// lines are skipped. A literal whose first component after the prefix is a file extension
/// (`"settings.json"`, `"settings.txt"`) is a file name, not an event.
enum EventCatalogSourceScanner {
  static let prefixes = Layers.catalogs.map(\.prefix)
  static let fileExtensions: Set<String> = [
    "json", "txt", "plist", "tmp", "previous", "journal", "snapshot", "log", "bin", "yaml", "yml",
    "toml", "conf", "db", "lock", "id",
  ]

  /// The package's root directory, three levels above this file.
  static var packageRoot: URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
  }

  /// Every `.swift` file under the package's `Sources/`, `Integrations/` and `Examples/`, sorted.
  static func sourceFiles() -> [URL] {
    var files: [URL] = []
    for folder in ["Sources", "Integrations", "Examples"] {
      let root = packageRoot.appendingPathComponent(folder)
      guard let walk = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
      else { continue }
      for case let file as URL in walk where file.pathExtension == "swift" {
        files.append(file)
      }
    }
    return files.sorted { $0.path < $1.path }
  }

  /// The event-name literals in `source`, in order.
  static func names(in source: String) -> [String] {
    var found: [String] = []
    for line in source.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.drop(while: { $0 == " " || $0 == "\t" }).hasPrefix("//") { continue }
      let bytes = Array(line.utf8)
      var index = 0
      while index < bytes.count {
        defer { index += 1 }
        guard bytes[index] == UInt8(ascii: "\""),
          let prefix = prefixes.first(where: { bytes[(index + 1)...].starts(with: $0.utf8) })
        else { continue }
        var end = index + 1 + prefix.utf8.count
        while end < bytes.count, isNameByte(bytes[end]) { end += 1 }
        let name = String(decoding: bytes[(index + 1)..<end], as: UTF8.self)
        let terminator = end < bytes.count ? bytes[end] : 0
        if terminator == UInt8(ascii: "\\") {
          found.append(name + "\\(…)")
        } else if terminator == UInt8(ascii: "\"") && !isFileName(name, prefix: prefix) {
          found.append(name)
        }
        index = end
      }
    }
    return found
  }

  static func isNameByte(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
      || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
      || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
      || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".")
  }

  static func isFileName(_ name: String, prefix: String) -> Bool {
    let first = name.dropFirst(prefix.count).split(separator: ".").first.map(String.init) ?? ""
    return fileExtensions.contains(first)
  }
}

@Suite("Event catalogs: every layer declares its events, and every name in the sources is declared")
struct EventCatalogTests {
  @Test("every layer-prefixed literal under Sources/, Integrations/ and Examples/ is declared")
  func everyNameDeclared() throws {
    let files = EventCatalogSourceScanner.sourceFiles()
    #expect(files.count > 10, "found only \(files.count) Swift files; is the root right?")
    var undeclared: [String] = []
    var literals = 0
    for file in files {
      let source = try String(contentsOf: file, encoding: .utf8)
      for name in EventCatalogSourceScanner.names(in: source) {
        literals += 1
        if !Layers.combined.contains(name) {
          let relative = file.path.dropFirst(EventCatalogSourceScanner.packageRoot.path.count + 1)
          undeclared.append("\(name) in \(relative)")
        }
      }
    }
    #expect(literals >= Layers.combined.entries.count)
    #expect(undeclared.isEmpty, "declared in no layer's catalog: \(undeclared)")
  }

  @Test("the scanner finds every declared name as a literal in the sources")
  func scannerFindsEveryDeclaration() throws {
    var found: Set<String> = []
    for file in EventCatalogSourceScanner.sourceFiles() {
      found.formUnion(
        EventCatalogSourceScanner.names(in: try String(contentsOf: file, encoding: .utf8)))
    }
    let declared = Set(Layers.combined.entries.map(\.name))
    #expect(declared.isSubset(of: found), "missed: \(declared.subtracting(found).sorted())")
  }

  @Test("the scanner reports undeclared, interpolated names and ignores comments and file names")
  func scannerRules() {
    let source = """
      events.emit("store.not_registered", .info)
      let kind = "settings.\\(name)"
      // events.emit("store.in_a_comment", .info)
      /// The test scans for `"store.` literals.
      let file = "settings.json"; let other = "settings.txt.previous"
      log("settings.loaded") + log("store.outbox_parked")
      """
    #expect(
      EventCatalogSourceScanner.names(in: source) == [
        "store.not_registered", "settings.\\(…)", "settings.loaded", "store.outbox_parked",
      ])
  }

  @Test("each layer's catalog holds only its own prefix, names are unique across layers")
  func layersOwnTheirEvents() {
    var seen: Set<String> = []
    for (prefix, catalog) in Layers.catalogs {
      #expect(!catalog.entries.isEmpty, "\(prefix) declares nothing")
      for entry in catalog.entries {
        #expect(entry.name.hasPrefix(prefix), "\(entry.name) is in the \(prefix) catalog")
        #expect(seen.insert(entry.name).inserted, "\(entry.name) is declared twice")
        #expect(!entry.summary.trimmingCharacters(in: .whitespaces).isEmpty, "\(entry.name)")
        #expect(Set(entry.fields).count == entry.fields.count, "\(entry.name)")
        #expect(catalog.contains(entry))
        #expect(Layers.combined.contains(entry))
        #expect(entry.layer + "." == prefix)
      }
    }
    #expect(!Layers.combined.contains("store.no_such_event"))
  }

  @Test("combining catalogs keeps each name once, in order")
  func combining() {
    let a = EventDefinition("store.a", level: .info, summary: "A.")
    let b = EventDefinition("store.b", level: .error, summary: "B.", fields: ["path"])
    let other = EventDefinition("store.a", level: .error, summary: "Another A.")
    let combined = EventCatalog(combining: [EventCatalog([a, b]), EventCatalog([other, b])])
    #expect(combined.entries == [a, b])
    #expect(combined.contains(a) && !combined.contains(other))
    #expect(combined.entry(named: "store.b") == b)
  }

  @Test("an event raised from a definition carries its name, level and fields")
  func raisedFromDefinition() {
    let definition = StoreEvents.journalTruncated
    let event = StoreEvent(
      definition, [("path", "/j"), ("validBytes", "4"), ("droppedBytes", "2")])
    #expect(event.name == "store.journal_truncated")
    #expect(event.level == .info)
    #expect(event["droppedBytes"] == "2")
    #expect(
      event.description == "info store.journal_truncated path=/j validBytes=4 droppedBytes=2")
  }
}
