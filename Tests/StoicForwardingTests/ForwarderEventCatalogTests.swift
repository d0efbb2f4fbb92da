import Foundation
import StoicForwarding
import StoicStore
import Testing

/// The events a forwarder can raise, read from the sources: every `StoreEvents.x` and
/// `ForwardingEvents.x` on a line of code (not a comment) of the storage core (the outbox and
/// everything under it) and of the forwarding layer, each named by the
/// `static let x = EventDefinition("name", …)` that declares it.
@Suite("Forwarder.eventCatalog: exactly the events a forwarder and its outbox can raise")
struct ForwarderEventCatalogTests {
  /// The package's root directory, three levels above this file.
  static var packageRoot: URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
  }

  /// The files that declare events rather than raise them.
  static let declarationFiles = [
    "Sources/StoicStore/Events/StoreEvents.swift",
    "Sources/StoicForwarding/Forwarder/ForwardingEvents.swift",
  ]

  /// The members of the event namespaces that are catalogs, not events.
  static let catalogs: Set<String> = ["catalog"]

  /// Every `.swift` file of the two modules, by path relative to the package root.
  static func sources() throws -> [(path: String, text: String)] {
    var found: [(String, String)] = []
    for folder in ["Sources/StoicStore", "Sources/StoicForwarding"] {
      let root = packageRoot.appendingPathComponent(folder)
      guard let walk = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
      else { continue }
      for case let file as URL in walk where file.pathExtension == "swift" {
        let path = String(file.standardizedFileURL.path.dropFirst(packageRoot.path.count + 1))
        found.append((path, try String(contentsOf: file, encoding: .utf8)))
      }
    }
    return found
  }

  /// The identifiers after `StoreEvents.` or `ForwardingEvents.` on code lines, by namespace.
  static func raised(in source: String) -> Set<String> {
    let identifier: (Character) -> Bool = { $0.isLetter || $0.isNumber || $0 == "_" }
    var found: Set<String> = []
    for line in source.split(separator: "\n")
    where !line.drop(while: { $0 == " " }).hasPrefix("//") {
      for namespace in ["StoreEvents", "ForwardingEvents"] {
        var rest = line[...]
        while let range = rest.range(of: namespace + ".") {
          let member = rest[range.upperBound...].prefix(while: identifier)
          if !(rest[..<range.lowerBound].last.map(identifier) ?? false), !member.isEmpty {
            found.insert(namespace + "." + member)
          }
          rest = rest[range.upperBound...]
        }
      }
    }
    return found
  }

  /// `static let x = EventDefinition(\n "name"`: each declared identifier's event name.
  static func declared(in source: String, namespace: String) -> [String: String] {
    var names: [String: String] = [:]
    var rest = source[...]
    while let range = rest.range(of: "static let ") {
      rest = rest[range.upperBound...]
      let member = rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
      let after = rest[member.endIndex...]
      guard after.hasPrefix(" = EventDefinition("), let open = after.firstIndex(of: "\""),
        let close = after[after.index(after: open)...].firstIndex(of: "\"")
      else { continue }
      names[namespace + "." + member] = String(after[after.index(after: open)..<close])
    }
    return names
  }

  @Test("the catalog lists every event the forwarder and its storage core raise, and no other")
  func catalogIsExact() throws {
    var declared: [String: String] = [:]
    var raised: Set<String> = []
    for (path, text) in try Self.sources() {
      if let index = Self.declarationFiles.firstIndex(of: path) {
        let namespace = index == 0 ? "StoreEvents" : "ForwardingEvents"
        declared.merge(Self.declared(in: text, namespace: namespace)) { first, _ in first }
      } else {
        raised.formUnion(
          Self.raised(in: text).filter {
            !Self.catalogs.contains(String($0.split(separator: ".")[1]))
          })
      }
    }
    let names = Set(raised.compactMap { declared[$0] })
    let listed = Set(Forwarder.eventCatalog.entries.map(\.name))
    // The scan found both layers, and the catalog is exactly what it found.
    #expect(names.isSuperset(of: ["store.outbox_delivered", "forwarding.batch_parked"]))
    #expect(raised.allSatisfy { declared[$0] != nil }, "raised, never declared: \(raised)")
    #expect(
      listed.symmetricDifference(names).isEmpty,
      "listed xor raised: \(listed.symmetricDifference(names).sorted())")
  }

  @Test("the scan reads qualified members on code lines and declarations with their names")
  func scanRules() {
    let source = """
      events.emit(ForwardingEvents.batchLost, []) + MyStoreEvents.other
      // StoreEvents.inAComment
      x(StoreEvents.outboxParked)
      """
    #expect(
      Self.raised(in: source) == ["ForwardingEvents.batchLost", "StoreEvents.outboxParked"])
    let declarations = """
      public static let batchLost = EventDefinition(
        "forwarding.batch_lost", level: .warning,
      """
    #expect(
      Self.declared(in: declarations, namespace: "ForwardingEvents")
        == ["ForwardingEvents.batchLost": "forwarding.batch_lost"])
  }
}
