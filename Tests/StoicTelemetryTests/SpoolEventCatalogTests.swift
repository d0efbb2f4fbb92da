import Foundation
import StoicStore
import Testing

@testable import StoicTelemetry

/// The events a telemetry spool's layers can raise, read from the sources: every
/// `StoreEvents.x` and `SpoolEvents.x` named on a line of code (not a comment) of the storage
/// core's folders a spool is built from and of the telemetry layer, each mapped to its name by
/// the `static let x = EventDefinition("name", …)` that declares it.
enum SpoolEventSources {
  /// The package's root directory, three levels above this file.
  static var packageRoot: URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
  }

  /// The storage core's folders a spool does not use: it keeps no outbox.
  static let unusedStoreFolders = ["Outbox"]

  /// The folders whose definitions are declarations, not raises.
  static let declarationFolders = ["Sources/StoicStore/Events"]

  /// The members of `StoreEvents` and `SpoolEvents` that are catalogs, not events.
  static let catalogs: Set<String> = ["catalog", "storeCatalog"]

  /// The files declaring the spool layer's events.
  static let declarationFilePrefix = "SpoolEvents"

  /// Every `.swift` file under `folder` (relative to the package root), sorted.
  static func swiftFiles(under folder: String) -> [URL] {
    let root = packageRoot.appendingPathComponent(folder)
    guard let walk = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
    else { return [] }
    var files: [URL] = []
    for case let file as URL in walk where file.pathExtension == "swift" { files.append(file) }
    return files.sorted { $0.path < $1.path }
  }

  /// The path of `file` relative to the package root.
  static func relative(_ file: URL) -> String {
    String(file.standardizedFileURL.path.dropFirst(packageRoot.standardizedFileURL.path.count + 1))
  }

  /// The lines of `source` that are code, not comments.
  static func codeLines(_ source: String) -> [Substring] {
    source.split(separator: "\n").filter {
      !$0.drop(while: { $0 == " " || $0 == "\t" }).hasPrefix("//")
    }
  }

  /// The identifiers that follow `qualifier` + `.` on the code lines of `source`.
  static func members(of qualifier: String, in source: String) -> Set<String> {
    var found: Set<String> = []
    for line in codeLines(source) {
      var rest = line[...]
      while let range = rest.range(of: qualifier + ".") {
        let before = rest[..<range.lowerBound].last
        let name = rest[range.upperBound...].prefix { $0.isLetter || $0.isNumber || $0 == "_" }
        if before.map({ !($0.isLetter || $0.isNumber || $0 == "_") }) ?? true, !name.isEmpty {
          found.insert(String(name))
        }
        rest = rest[range.upperBound...]
      }
    }
    return found
  }

  /// `static let x = EventDefinition(\n "name"` in `source`: each declared identifier's name.
  static func declarations(in source: String) -> [String: String] {
    var names: [String: String] = [:]
    var rest = source[...]
    while let range = rest.range(of: "static let ") {
      rest = rest[range.upperBound...]
      let identifier = rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
      let after = rest[identifier.endIndex...]
      guard after.hasPrefix(" = EventDefinition("),
        let open = after.firstIndex(of: "\""),
        let close = after[after.index(after: open)...].firstIndex(of: "\"")
      else { continue }
      names[String(identifier)] = String(after[after.index(after: open)..<close])
    }
    return names
  }

  /// The event names a spool's layers can raise, and any identifier raised that no
  /// declaration names.
  static func raised() throws -> (names: Set<String>, unknown: Set<String>) {
    var declared: [String: String] = [:]
    var raised: Set<String> = []
    let store = swiftFiles(under: "Sources/StoicStore").filter { file in
      !unusedStoreFolders.contains { relative(file).hasPrefix("Sources/StoicStore/\($0)/") }
    }
    for file in store + swiftFiles(under: "Sources/StoicTelemetry") {
      let source = try String(contentsOf: file, encoding: .utf8)
      let path = relative(file)
      if declarationFolders.contains(where: { path.hasPrefix($0 + "/") })
        || file.lastPathComponent.hasPrefix(declarationFilePrefix)
      {
        declared.merge(declarations(in: source)) { first, _ in first }
        continue
      }
      for qualifier in ["StoreEvents", "SpoolEvents"] {
        raised.formUnion(members(of: qualifier, in: source).subtracting(catalogs))
      }
    }
    let names = Set(raised.compactMap { declared[$0] })
    return (names, raised.filter { declared[$0] == nil })
  }
}

@Suite("TelemetrySpool.eventCatalog: exactly the events a spool's layers can raise")
struct SpoolEventCatalogTests {
  @Test("the catalog lists every event the spool's layers raise, and no other")
  func catalogIsExact() throws {
    let (raised, unknown) = try SpoolEventSources.raised()
    #expect(unknown.isEmpty, "raised but declared nowhere the scan looks: \(unknown.sorted())")
    #expect(raised.count > 10, "found only \(raised.count) events; is the root right?")
    let listed = Set(TelemetrySpool.eventCatalog.entries.map(\.name))
    #expect(
      listed.subtracting(raised).isEmpty,
      "listed but never raised by a spool: \(listed.subtracting(raised).sorted())")
    #expect(
      raised.subtracting(listed).isEmpty,
      "raised by a spool but not listed: \(raised.subtracting(listed).sorted())")
  }

  @Test("the telemetry layer names none of the types of the storage core's folders it leaves out")
  func unusedFoldersStayUnused() throws {
    // The folder's own types (`Outbox…`), not the utilities kept beside them (`HTTPDate`).
    var types: Set<String> = []
    for folder in SpoolEventSources.unusedStoreFolders {
      for file in SpoolEventSources.swiftFiles(under: "Sources/StoicStore/\(folder)") {
        let base = file.deletingPathExtension().lastPathComponent
        let type = String(base.prefix { $0 != "+" })
        if type.hasPrefix(folder) { types.insert(type) }
      }
    }
    #expect(types.contains("Outbox"))
    for file in SpoolEventSources.swiftFiles(under: "Sources/StoicTelemetry") {
      let code = SpoolEventSources.codeLines(try String(contentsOf: file, encoding: .utf8))
      for line in code {
        let words = Set(line.split { !($0.isLetter || $0.isNumber || $0 == "_") }.map(String.init))
        let named = words.intersection(types)
        #expect(named.isEmpty, "\(SpoolEventSources.relative(file)) names \(named.sorted())")
      }
    }
  }

  @Test("the scan reads qualified members on code lines and declarations with their names")
  func scanRules() {
    let source = """
      events.emit(StoreEvents.journalTruncated, []) + MyStoreEvents.other
      // StoreEvents.inAComment
        /// ``StoreEvents/tempRemoved`` and StoreEvents.inADocComment
      let catalog = StoreEvents.catalog; x(StoreEvents.tempRemoved)
      """
    #expect(
      SpoolEventSources.members(of: "StoreEvents", in: source)
        == ["journalTruncated", "catalog", "tempRemoved"])
    let declarations = """
      public static let journalTruncated = EventDefinition(
        "store.journal_truncated", level: .warning,
      static let catalog = EventCatalog([journalTruncated])
      """
    #expect(
      SpoolEventSources.declarations(in: declarations)
        == ["journalTruncated": "store.journal_truncated"])
  }
}
