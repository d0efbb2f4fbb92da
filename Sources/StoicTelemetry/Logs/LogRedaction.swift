/// Replaces the values of chosen metadata keys with ``placeholder`` before a record is encoded
/// (``LogSpoolOptions/redactedKeys``): a secret logged as metadata never reaches the disk.
///
/// Keys match without regard to ASCII case (`Authorization` is `authorization`), at any depth:
/// a listed key inside a nested dictionary, or in a dictionary inside an array, is redacted
/// too. The whole value of a listed key is replaced, whatever it is (a string, a dictionary, an
/// array). Only metadata keys are looked at: a secret in the message or the label is not.
///
/// A record with no listed key costs a scan of its keys and no allocation; one with a listed
/// key is copied once with the values replaced.
struct LogRedaction: Sendable {
  /// What a redacted value becomes: `<redacted>`.
  static let placeholder = LogMetadataValue.string("<redacted>")

  /// The keys, ASCII-lowercased, as bytes.
  private let keys: [[UInt8]]

  /// A redaction of `keys` (any case).
  init(_ keys: Set<String>) {
    self.keys = keys.map { key in key.utf8.map(Self.lowercased) }.sorted {
      $0.lexicographicallyPrecedes($1)
    }
  }

  /// Whether there is nothing to redact.
  var isEmpty: Bool { keys.isEmpty }

  /// `metadata` with the values of the listed keys replaced, or `nil` when it holds none (so
  /// the caller keeps its own, without a copy).
  func redacted(_ metadata: LogMetadata) -> LogMetadata? {
    guard !keys.isEmpty, needsRedaction(metadata) else { return nil }
    return replaced(metadata)
  }

  private func matches(_ key: String) -> Bool {
    keys.contains { listed in
      listed.count == key.utf8.count
        && zip(listed, key.utf8).allSatisfy { $0 == Self.lowercased($1) }
    }
  }

  private func needsRedaction(_ metadata: LogMetadata) -> Bool {
    metadata.contains { key, value in matches(key) || needsRedaction(value) }
  }

  private func needsRedaction(_ value: LogMetadataValue) -> Bool {
    switch value {
    case .string, .stringConvertible: false
    case .dictionary(let entries): needsRedaction(entries)
    case .array(let values): values.contains { needsRedaction($0) }
    }
  }

  private func replaced(_ metadata: LogMetadata) -> LogMetadata {
    var copy = metadata
    for (key, value) in metadata {
      if matches(key) {
        copy[key] = Self.placeholder
      } else if needsRedaction(value) {
        copy[key] = replaced(value)
      }
    }
    return copy
  }

  private func replaced(_ value: LogMetadataValue) -> LogMetadataValue {
    switch value {
    case .string, .stringConvertible: value
    case .dictionary(let entries): .dictionary(replaced(entries))
    case .array(let values): .array(values.map { replaced($0) })
    }
  }

  private static func lowercased(_ byte: UInt8) -> UInt8 {
    byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
  }
}
