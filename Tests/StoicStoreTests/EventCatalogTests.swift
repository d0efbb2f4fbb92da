import Foundation
import StoicStore
import Testing

/// Finds the event names written as string literals in Swift source.
///
/// A name is a literal that opens with `"store.`, `"settings.` or `"spool.` and runs on in
/// letters, digits, `_` and `.` to its closing quote, or to an interpolation (`"store.\(x)"`,
/// reported as `store.\(…)` so that a name built at run time fails the catalog test). Comment
/// lines are skipped. A literal whose first component after the prefix is a file extension
/// (`"settings.json"`, `"settings.txt"`) is a file name, not an event.
enum EventCatalogSourceScanner {
  static let prefixes = ["store.", "settings.", "spool."]
  static let fileExtensions: Set<String> = [
    "json", "txt", "plist", "tmp", "previous", "journal", "snapshot", "log", "bin", "yaml", "yml",
    "toml", "conf", "db", "lock",
  ]

  /// The package's root directory, three levels above this file.
  static var packageRoot: URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
  }

  /// Every `.swift` file under the package's `Sources/` and `Integrations/`, sorted.
  static func sourceFiles() -> [URL] {
    var files: [URL] = []
    for folder in ["Sources", "Integrations"] {
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

@Suite("EventCatalog: every event name in the sources is registered")
struct EventCatalogTests {
  @Test("every store., settings. and spool. literal under Sources/ is in EventCatalog.all")
  func everyNameRegistered() throws {
    let files = EventCatalogSourceScanner.sourceFiles()
    #expect(files.count > 10, "found only \(files.count) Swift files; is the root right?")
    let registered = Set(EventCatalog.all.map(\.name))
    var unregistered: [String] = []
    var literals = 0
    for file in files {
      let source = try String(contentsOf: file, encoding: .utf8)
      for name in EventCatalogSourceScanner.names(in: source) {
        literals += 1
        if !registered.contains(name) {
          let relative = file.path.dropFirst(EventCatalogSourceScanner.packageRoot.path.count + 1)
          unregistered.append("\(name) in \(relative)")
        }
      }
    }
    #expect(literals >= registered.count)
    #expect(unregistered.isEmpty, "not in EventCatalog.all: \(unregistered)")
  }

  @Test("the scanner finds every one of the catalog's own literals in EventCatalog.swift")
  func scannerFindsCatalogLiterals() throws {
    let catalog = try #require(
      EventCatalogSourceScanner.sourceFiles().first { $0.lastPathComponent == "EventCatalog.swift" }
    )
    let found = Set(
      EventCatalogSourceScanner.names(in: try String(contentsOf: catalog, encoding: .utf8)))
    let registered = Set(EventCatalog.all.map(\.name))
    #expect(registered.isSubset(of: found), "missed: \(registered.subtracting(found).sorted())")
  }

  @Test("the scanner reports unregistered, interpolated names and ignores comments and file names")
  func scannerRules() {
    let source = """
      events.emit("store.not_registered", .info)
      let kind = "spool.\\(name)"
      // events.emit("store.in_a_comment", .info)
      /// The test scans for `"store.` literals.
      let file = "settings.json"; let other = "settings.txt.previous"
      log("settings.loaded") + log("spool.dropped_records")
      """
    #expect(
      EventCatalogSourceScanner.names(in: source) == [
        "store.not_registered", "spool.\\(…)", "settings.loaded", "spool.dropped_records",
      ])
  }

  @Test("names are unique, use a known prefix, and every entry has a summary and a level")
  func entriesWellFormed() {
    let names = EventCatalog.all.map(\.name)
    #expect(Set(names).count == names.count, "duplicates: \(names)")
    for entry in EventCatalog.all {
      #expect(
        EventCatalogSourceScanner.prefixes.contains { entry.name.hasPrefix($0) }, "\(entry.name)")
      #expect(!entry.summary.trimmingCharacters(in: .whitespaces).isEmpty, "\(entry.name)")
      #expect(Set(entry.fields).count == entry.fields.count, "\(entry.name)")
      #expect(EventCatalog.entry(named: entry.name) == entry)
      #expect(EventCatalog.contains(entry.name))
    }
    #expect(!EventCatalog.contains("store.no_such_event"))
  }
}
