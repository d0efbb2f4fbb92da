#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The JSON coding the settings store uses, in one place: text to ``SettingsJSON`` and back,
/// and a field's Swift value to ``SettingsJSON`` and back.
enum SettingsCoding {
  /// Parses JSON text (JSON5, with comments, when `json5` is on).
  ///
  /// The decoder sees only text it cannot trap or overflow its stack on (see
  /// ``scan(_:json5:stoppingAbove:)``): UTF-8 throughout, no number at the top level (the
  /// decoder reads past the end of a number that is the whole text), nested at most
  /// ``maxNesting`` levels deep as the parser counts them, and numbers of the forms
  /// ``isSafeNumber(_:)`` allows.
  ///
  /// - Throws: ``SettingsDocumentProblem`` for text that fails those checks; the decoder's
  ///   error for text that is not JSON.
  static func parse(_ bytes: [UInt8], json5: Bool) throws -> SettingsJSON {
    if let offset = firstInvalidUTF8(in: bytes) {
      throw SettingsDocumentProblem(
        message: "not JSON: the text is not UTF-8 (an invalid byte at offset \(offset))")
    }
    let scan = scan(bytes, json5: json5, stoppingAbove: maxNesting)
    guard scan.deepest <= maxNesting else {
      throw SettingsDocumentProblem(message: "wrong shape: nested deeper than \(maxNesting) levels")
    }
    guard !scan.startsWithNumber else {
      throw SettingsDocumentProblem(message: "wrong shape: the top level is a number")
    }
    if let number = scan.unsafeNumber {
      let text = String(decoding: bytes[number], as: UTF8.self)
      throw SettingsDocumentProblem(
        message: "not JSON: the number \(trimmed(text, limit: 40)) at offset "
          + "\(number.lowerBound) is not one this reader accepts")
    }
    let decoder = JSONDecoder()
    decoder.allowsJSON5 = json5
    return try decoder.decode(SettingsJSON.self, from: Data(bytes))
  }

  /// Encodes a value as JSON text: keys sorted, pretty-printed unless `pretty` is off.
  static func encode<T: Encodable>(_ value: T, pretty: Bool = true) throws -> [UInt8] {
    let encoder = JSONEncoder()
    encoder.outputFormatting =
      pretty ? [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes] : [.sortedKeys]
    return Array(try encoder.encode(value))
  }

  /// A field's value in JSON form.
  ///
  /// - Throws: `EncodingError` for what JSON cannot hold; ``SettingsDocumentProblem`` when the
  ///   value nests deeper than a field may (one level less than ``maxNesting``).
  static func json<T: Encodable>(from value: T) throws -> SettingsJSON {
    let bytes = try encode(value, pretty: false)
    guard !nestsDeeper(than: maxNesting - 1, bytes, json5: false) else {
      throw SettingsDocumentProblem(message: "nests deeper than \(maxNesting - 1) levels")
    }
    return try JSONDecoder().decode(SettingsJSON.self, from: Data(bytes))
  }

  /// A field's value from its JSON form.
  static func value<T: Decodable>(_ type: T.Type, from json: SettingsJSON) throws -> T {
    try JSONDecoder().decode(type, from: Data(try encode(json, pretty: false)))
  }

  /// A short sentence for a coding error, without the coding path noise.
  static func describe(_ error: any Error) -> String {
    switch error {
    case DecodingError.typeMismatch(_, let context),
      DecodingError.valueNotFound(_, let context),
      DecodingError.keyNotFound(_, let context),
      DecodingError.dataCorrupted(let context):
      return trimmed(context.debugDescription)
    case EncodingError.invalidValue(_, let context):
      return trimmed(context.debugDescription)
    default:
      return trimmed(String(describing: error))
    }
  }

  /// Cuts a message or a value's description to a length that fits in an issue or an event.
  static func trimmed(_ text: String, limit: Int = 120) -> String {
    text.count <= limit ? text : String(text.prefix(limit)) + "…"
  }
}
