/// HTTP header fields in order, looked up without regard to case.
///
/// Header values may be secrets (an `Authorization` bearer token, an API key), so nothing
/// that prints or reflects a value of this type shows them: ``description``,
/// ``debugDescription`` and its mirror list the names only. Read a value with
/// ``subscript(_:)``.
public struct HTTPHeaders: Sendable, Hashable, ExpressibleByDictionaryLiteral,
  CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable
{
  /// The fields, in order: (name, value).
  public private(set) var fields: [(name: String, value: String)]

  /// No fields.
  public init() {
    fields = []
  }

  /// The fields of a literal, in its order.
  public init(dictionaryLiteral elements: (String, String)...) {
    fields = elements.map { (name: $0.0, value: $0.1) }
  }

  /// The value of the first field named `name` (any case), or `nil`.
  public subscript(_ name: String) -> String? {
    fields.first { Self.sameName($0.name, name) }?.value
  }

  /// Whether a field named `name` (any case) is present.
  public func contains(_ name: String) -> Bool {
    fields.contains { Self.sameName($0.name, name) }
  }

  /// Appends a field (a second field of the same name is kept as well).
  public mutating func add(_ name: String, _ value: String) {
    fields.append((name: name, value: value))
  }

  /// Replaces every field named `name` with one holding `value`.
  public mutating func set(_ name: String, _ value: String) {
    fields.removeAll { Self.sameName($0.name, name) }
    fields.append((name: name, value: value))
  }

  /// The names, in order.
  public var names: [String] { fields.map(\.name) }

  /// Whether the fields can go on the wire: each name an RFC 9110 token, each value of RFC
  /// 9110's field-value characters (visible ASCII, space, horizontal tab and bytes from 0x80):
  /// no CR, LF or NUL (which would let a value start a header of its own), no other control
  /// byte (ESC, DEL, …). The error names the offending field, never its value.
  public func validate() throws(ForwardingError) {
    for (name, value) in fields {
      guard !name.isEmpty, name.utf8.allSatisfy(Self.isTokenByte) else {
        throw ForwardingError(.invalidArgument, "a header name is not an HTTP token")
      }
      guard value.utf8.allSatisfy(Self.isFieldValueByte) else {
        throw ForwardingError(
          .invalidArgument,
          "the value of header \(name) contains a control character (a line break, NUL, ESC,"
            + " DEL, …)")
      }
    }
  }

  /// Whether `byte` may be in a field value (RFC 9110 5.5: VCHAR, SP, HTAB, obs-text).
  static func isFieldValueByte(_ byte: UInt8) -> Bool {
    byte == 0x09 || (byte >= 0x20 && byte != 0x7F)
  }

  /// The names, with every value hidden: `[Content-Type: <hidden>, Authorization: <hidden>]`.
  public var description: String {
    "[" + fields.map { "\($0.name): <hidden>" }.joined(separator: ", ") + "]"
  }

  /// As ``description``.
  public var debugDescription: String { description }

  /// A mirror with the names only.
  public var customMirror: Mirror {
    Mirror(self, unlabeledChildren: names, displayStyle: .collection)
  }

  /// Equal when the same fields are in the same order (names compared without case).
  public static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
    lhs.fields.elementsEqual(rhs.fields) { sameName($0.name, $1.name) && $0.value == $1.value }
  }

  /// Hashes the fields.
  public func hash(into hasher: inout Hasher) {
    for (name, value) in fields {
      hasher.combine(name.lowercased())
      hasher.combine(value)
    }
  }

  static func sameName(_ lhs: String, _ rhs: String) -> Bool {
    lhs.utf8.count == rhs.utf8.count
      && zip(lhs.utf8, rhs.utf8).allSatisfy { asciiLowercase($0) == asciiLowercase($1) }
  }

  private static func asciiLowercase(_ byte: UInt8) -> UInt8 {
    byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
  }

  /// RFC 9110 `tchar`: a byte that may appear in a header name or a method.
  package static func isTokenByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"):
      true
    default:
      "!#$%&'*+-.^_`|~".utf8.contains(byte)
    }
  }
}
