extension SettingsSchema {
  /// One setting: a key in the document, the property of `Value` it is stored in, and the
  /// constraints its value must satisfy. The property's value in ``SettingsSchema/defaults`` is
  /// the field's default.
  public struct Field: Sendable {
    /// The key the field is stored under.
    public let key: String
    /// Decodes the field's JSON into the value; returns the problems (nothing is set if any).
    let decode: @Sendable (SettingsJSON, inout Value) -> [String]
    /// Checks the field's value in a `Value`: its JSON, or the problems.
    let encode: @Sendable (Value) -> Encoded
    /// Whether two values agree on this field.
    let agrees: @Sendable (Value, Value) -> Bool

    /// A field's value, checked and in JSON form.
    enum Encoded {
      /// The JSON to write.
      case json(SettingsJSON)
      /// The value breaks the schema.
      case invalid([String])
    }

    /// Declares a field stored under `key` in the property at `keyPath`.
    ///
    /// Any `Codable` type works (numbers, strings, enums with raw values, arrays, nested
    /// structs); its JSON encoding is what is stored. On load the stored JSON must decode to
    /// `T`, re-encode to the same value and satisfy every constraint, or the field keeps its
    /// default (a ``SettingsIssue/repaired(key:problem:)`` issue).
    ///
    /// - Parameters:
    ///   - key: The key in the document.
    ///   - keyPath: Where the value lives in `Value`.
    ///   - constraints: Rules the value must satisfy.
    public static func field<T: Codable & Sendable & Equatable>(
      _ key: String,
      _ keyPath: any WritableKeyPath<Value, T> & Sendable,
      _ constraints: SettingsConstraint<T>...
    ) -> Field {
      Field(
        key: key,
        decode: { json, value in
          let decoded: T
          do {
            decoded = try SettingsCoding.value(T.self, from: json)
          } catch {
            let shown = SettingsCoding.trimmed(json.description, limit: 60)
            return ["\(json.kind) \(shown): \(SettingsCoding.describe(error))"]
          }
          let problems = check(decoded, constraints).problems
          if problems.isEmpty { value[keyPath: keyPath] = decoded }
          return problems
        },
        encode: { value in
          let checked = check(value[keyPath: keyPath], constraints)
          guard let json = checked.json, checked.problems.isEmpty else {
            return .invalid(checked.problems)
          }
          return .json(json)
        },
        agrees: { $0[keyPath: keyPath] == $1[keyPath: keyPath] })
    }

    /// Encodes, decodes again and applies the constraints: the problems found and the JSON.
    private static func check<T: Codable & Sendable & Equatable>(
      _ value: T, _ constraints: [SettingsConstraint<T>]
    ) -> (problems: [String], json: SettingsJSON?) {
      let json: SettingsJSON
      do {
        json = try SettingsCoding.json(from: value)
      } catch {
        return (["cannot be stored as JSON: \(SettingsCoding.describe(error))"], nil)
      }
      guard let again = try? SettingsCoding.value(T.self, from: json), again == value else {
        let shown = SettingsCoding.trimmed(json.description, limit: 60)
        return (["does not read back as the same value from its JSON \(shown)"], json)
      }
      return (constraints.compactMap { $0.problem(with: value) }, json)
    }
  }
}
