import StoicSettings

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Parses JSON text in tests, independently of the store's own parsing path.
enum JSONText {
  static func parse(_ bytes: [UInt8]) throws -> SettingsJSON {
    try JSONDecoder().decode(SettingsJSON.self, from: Data(bytes))
  }
}
