import StoicStore

/// One live file of a metrics spool (`live-<n>.map`), mapped: the memory of its series' cells.
/// Series keep their extent, so its memory stays mapped while any handle can store into it.
final class MetricsLiveExtent: Sendable {
  /// `n` of `live-<n>.map`.
  let index: Int
  let mapping: any MemoryMapping

  init(index: Int, mapping: any MemoryMapping) {
    self.index = index
    self.mapping = mapping
  }

  /// The mapped header's first byte.
  var base: UnsafeMutableRawPointer { mapping.baseAddress }

  /// The extent's size in bytes.
  var size: Int { Int(mapping.length) }

  /// The file name of extent `index`.
  static func name(_ index: Int) -> String { "live-\(index).map" }

  /// The index `name` is the live file of, or nil for any other name.
  static func index(of name: String) -> Int? {
    guard name.hasPrefix("live-"), name.hasSuffix(".map") else { return nil }
    let digits = name.dropFirst("live-".count).dropLast(".map".count)
    guard !digits.isEmpty, digits.count <= 9, digits.allSatisfy(\.isASCII) else { return nil }
    guard let index = Int(digits), String(index) == digits else { return nil }
    return index
  }
}
