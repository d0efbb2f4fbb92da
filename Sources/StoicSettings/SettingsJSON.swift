/// A JSON value: the form a settings document takes between the file and the schema.
///
/// Migrations rewrite documents in this form (see ``SettingsMigration``), and unknown keys a
/// schema preserves are kept in it byte-for-byte equivalent. Numbers that are whole and fit in
/// 64 bits are ``integer(_:)``; every other number is ``number(_:)``.
public enum SettingsJSON: Sendable, Hashable, Codable, CustomStringConvertible {
  /// `null`.
  case null
  /// `true` or `false`.
  case bool(Bool)
  /// A whole number that fits in an `Int64`.
  case integer(Int64)
  /// Any other number.
  case number(Double)
  /// A string.
  case string(String)
  /// An array.
  case array([SettingsJSON])
  /// An object.
  case object([String: SettingsJSON])

  /// Decodes any JSON value.
  ///
  /// - Throws: `DecodingError` when the input is not JSON.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let bool = try? container.decode(Bool.self) {
      self = .bool(bool)
    } else if let integer = try? container.decode(Int64.self) {
      self = .integer(integer)
    } else if let number = try? container.decode(Double.self) {
      // A whole value written with a fraction or an exponent Foundation will not read as an
      // integer (`555555555555555555.5` is the Double 555555555555555584) is an integer too:
      // written back as such, it reads as the same value and kind.
      self = Int64(exactly: number).map(SettingsJSON.integer) ?? .number(number)
    } else if let string = try? container.decode(String.self) {
      self = .string(string)
    } else if let array = try? container.decode([SettingsJSON].self) {
      self = .array(array)
    } else {
      self = .object(try container.decode([String: SettingsJSON].self))
    }
  }

  /// Encodes the value as JSON.
  ///
  /// - Throws: `EncodingError` for a number JSON cannot express (NaN, an infinity).
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    switch self {
    case .null: try container.encodeNil()
    case .bool(let bool): try container.encode(bool)
    case .integer(let integer): try container.encode(integer)
    case .number(let number): try container.encode(number)
    case .string(let string): try container.encode(string)
    case .array(let array): try container.encode(array)
    case .object(let object): try container.encode(object)
    }
  }

  /// A short name of the value's kind (`object`, `array`, `string`, …), for messages.
  public var kind: String {
    switch self {
    case .null: "null"
    case .bool: "boolean"
    case .integer, .number: "number"
    case .string: "string"
    case .array: "array"
    case .object: "object"
    }
  }

  /// The value as compact JSON (a number JSON cannot express, such as NaN, as Swift prints it).
  public var description: String {
    if case .number(let number) = self, !number.isFinite { return "\(number)" }
    let bytes = (try? SettingsCoding.encode(self, pretty: false)) ?? Array("null".utf8)
    return String(decoding: bytes, as: UTF8.self)
  }
}
