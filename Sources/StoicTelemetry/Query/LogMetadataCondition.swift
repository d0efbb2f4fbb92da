/// One `key=value` condition on a log record's metadata (`--where`): the record matches when
/// the value at `key` is `value`.
///
/// ## Keys
///
/// A key is looked up as written first (swift-log keys often hold dots: `request.id`), then,
/// at each dot, as a path into nested dictionaries: `http.status` is the key `http.status`, or
/// the key `status` of the dictionary at `http`, and `a.b.c` may also be `b.c` inside `a` or
/// `c` inside `a.b`. The condition holds when any of these lookups finds the value.
///
/// ## Values
///
/// A string, or a string-convertible value's description, equal to `value` (byte for byte,
/// case-sensitive); an array holding such an element. A dictionary never equals a value.
public struct LogMetadataCondition: Sendable, Hashable, CustomStringConvertible {
  /// The key, dots separating nested keys.
  public var key: String
  /// The value it must have.
  public var value: String

  /// A condition on the value at `key`.
  public init(key: String, value: String) {
    self.key = key
    self.value = value
  }

  /// Parses `key=value` (split at the first `=`; the value may be empty or hold `=`).
  ///
  /// - Throws: ``LogQueryError/malformedCondition(_:)`` without an `=` or with an empty key.
  public init(parsing text: String) throws(LogQueryError) {
    guard let equals = text.firstIndex(of: "="), equals != text.startIndex else {
      throw .malformedCondition(text)
    }
    self.init(key: String(text[..<equals]), value: String(text[text.index(after: equals)...]))
  }

  /// `key=value`.
  public var description: String { "\(key)=\(value)" }

  /// Whether `metadata` has `value` at `key` (see the type's description).
  public func matches(_ metadata: LogMetadata) -> Bool {
    Self.find(Substring(key), in: metadata, value: value, depth: 0)
  }

  /// The deepest nesting followed: a record's metadata nests at most
  /// ``LogRecordFormat/maximumDepth`` deep.
  static let maximumDepth = LogRecordFormat.maximumDepth + 1

  private static func find(_ key: Substring, in map: LogMetadata, value: String, depth: Int)
    -> Bool
  {
    if let found = map[String(key)], holds(found, value) { return true }
    guard depth < maximumDepth else { return false }
    var index = key.startIndex
    while let dot = key[index...].firstIndex(of: ".") {
      if case .dictionary(let nested)? = map[String(key[..<dot])],
        find(key[key.index(after: dot)...], in: nested, value: value, depth: depth + 1)
      {
        return true
      }
      index = key.index(after: dot)
    }
    return false
  }

  private static func holds(_ found: LogMetadataValue, _ value: String) -> Bool {
    switch found {
    case .string(let text), .stringConvertible(let text): text == value
    case .array(let elements):
      elements.contains {
        switch $0 {
        case .string(let text), .stringConvertible(let text): text == value
        default: false
        }
      }
    case .dictionary: false
    }
  }
}
