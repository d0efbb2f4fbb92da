import Foundation
import Testing

@testable import StoicSettings
@testable import StoicTesting

/// The nesting pre-scan (`SettingsCoding.nestingDepth`) against the real parser: on random
/// JSON5 and JSON documents full of what hides brackets (comments ended by `\n`, `\r` or the
/// end of the file, block comments, strings of both quotes with every kind of escape), the
/// depth the scan finds is the depth of what `JSONDecoder` decodes, on every prefix it is the
/// depth the parser had reached when the text ran out, and on any one-byte change the checks
/// let through and the parser accepts, the two still agree.
///
/// `STOIC_FUZZ_BUDGET` sets how many documents (a few hundred by default), `STOIC_FUZZ_SEED`
/// the seed.
@Suite struct SettingsNestingScanTests {
  @Test("the pre-scan's depth is the parser's, on random documents, their prefixes and mutants")
  func preScanAgreesWithTheParser() throws {
    let budget = FuzzBudget.fromEnvironment(default: 400)
    var mutantsParsed = 0
    var mutantsAgreeing = 0
    var prefixesChecked = 0
    for index in 0..<budget.cases {
      var random = budget.generator(forCase: index)
      let json5 = index % 4 != 0
      var generator = JSONTextGenerator(json5: json5)
      generator.document(&random, levels: 1 + random.below(9))
      let text = generator.bytes
      let shown = String(decoding: text, as: UTF8.self).debugDescription
      let scanned = SettingsCoding.nestingDepth(of: text, json5: json5)
      let parsed = try? SettingsCoding.parse(text, json5: json5)
      #expect(parsed != nil, "case \(index): refused \(shown)")
      if let parsed {
        #expect(Self.depth(of: parsed) == generator.deepest, "case \(index): \(shown)")
      }
      #expect(scanned == generator.deepest, "case \(index): scanned \(scanned) in \(shown)")
      #expect(
        SettingsCoding.nestsDeeper(than: scanned, text, json5: json5) == false
          && (scanned == 0 || SettingsCoding.nestsDeeper(than: scanned - 1, text, json5: json5)))

      // Cut anywhere: the parser has reached the depth of the brackets before the cut.
      for _ in 0..<4 {
        let cut = random.below(text.count + 1)
        let reached = cut == 0 ? 0 : generator.deepestThrough[cut - 1]
        let prefix = Array(text.prefix(cut))
        #expect(
          SettingsCoding.nestingDepth(of: prefix, json5: json5) == reached,
          "case \(index): cut at \(cut) of \(shown)")
        prefixesChecked += 1
      }

      // Change one byte to one that opens or ends something, or changes a number: whatever
      // the checks let through to the parser and the parser accepts nests no deeper than the
      // scan says (as deep, unless a change made two keys of an object equal: the parser
      // recursed into both values, the decoded object keeps one), and nothing the checks let
      // through stops the process.
      for _ in 0..<4 {
        var mutant = text
        let position = random.below(text.count)
        let bytes = Array(#"[]{}"'\/*ux0eE+-. "#.utf8) + [0x0A, 0x0D]
        let byte = bytes[random.below(bytes.count)]
        switch random.below(3) {
        case 0: mutant[position] = byte
        case 1: mutant.insert(byte, at: position)
        default: mutant.remove(at: position)
        }
        guard let accepted = try? SettingsCoding.parse(mutant, json5: json5) else { continue }
        mutantsParsed += 1
        let decodedDepth = Self.depth(of: accepted)
        let mutantDepth = SettingsCoding.nestingDepth(of: mutant, json5: json5)
        #expect(
          mutantDepth >= decodedDepth,
          "case \(index): \(String(decoding: mutant, as: UTF8.self).debugDescription)")
        if mutantDepth == decodedDepth { mutantsAgreeing += 1 }
      }
    }
    if FuzzBudget.isSetInEnvironment {
      print(
        "nesting pre-scan: \(budget.cases) documents, \(prefixesChecked) prefixes, "
          + "\(mutantsParsed) parsed mutants (\(mutantsAgreeing) as deep as the scan says)")
    }
    #expect(mutantsParsed > 0)
    #expect(mutantsAgreeing * 100 >= mutantsParsed * 99)
  }

  @Test("the scan stops where the parser throws, and at the limit")
  func stopsWhereTheParserStops() {
    func depth(_ text: String, json5: Bool = true, limit: Int = .max) -> Int {
      SettingsCoding.nestingDepth(of: Array(text.utf8), json5: json5, stoppingAbove: limit)
    }
    #expect(depth("// [[[\r[[") == 2)
    #expect(depth("// [[[\n[[") == 2)
    #expect(depth("/* [[[ */[") == 1)
    #expect(depth("/* [[[ *") == 0)  // unterminated: the parser throws
    #expect(depth("'[[[' [") == 1)
    #expect(depth("'[[[' [", json5: false) == 4)  // a single quote is no string in JSON
    #expect(depth("// [[[\n[[", json5: false) == 5)  // nor is `//` a comment
    #expect(depth(#"["\"[[" ["#) == 2)
    #expect(depth(#"["\u005b" ["#) == 2)
    #expect(depth(#"["\x5b" ["#) == 2)
    #expect(depth(#"["\uab"[[[["#) == 1)  // the quote inside `\u`'s digits: the parser throws
    #expect(depth(#"["\uabc\" [["#) == 3)
    #expect(depth("[[[[[[", limit: 3) == 4)
  }

  /// How deep arrays and objects nest in `value` (a scalar: 0).
  static func depth(of value: SettingsJSON) -> Int {
    switch value {
    case .array(let elements): 1 + (elements.map(depth).max() ?? 0)
    case .object(let members): 1 + (members.values.map(depth).max() ?? 0)
    default: 0
    }
  }
}

/// Writes random JSON5 (or JSON) documents that the parser accepts, knowing where their
/// structure is: ``deepestThrough`` holds, for each byte, the deepest nesting the parser has
/// reached once it read that byte.
struct JSONTextGenerator {
  let json5: Bool
  private(set) var bytes: [UInt8] = []
  private(set) var deepestThrough: [Int] = []
  private(set) var deepest = 0
  private var depth = 0

  init(json5: Bool) { self.json5 = json5 }

  /// A whole document: an object or an array of at most `levels` levels, among trivia.
  mutating func document(_ random: inout SplitMix64, levels: Int) {
    trivia(&random)
    if random.below(3) == 0 {
      array(&random, levels: levels)
    } else {
      object(&random, levels: levels)
    }
    trivia(&random, atEnd: true)
  }

  private mutating func emit(_ text: String) {
    for byte in text.utf8 {
      bytes.append(byte)
      deepestThrough.append(deepest)
    }
  }

  private mutating func open(_ bracket: String) {
    depth += 1
    deepest = max(deepest, depth)
    emit(bracket)
  }

  private mutating func close(_ bracket: String) {
    depth -= 1
    emit(bracket)
  }

  private mutating func value(_ random: inout SplitMix64, levels: Int) {
    let choice = random.below(levels > 0 ? 7 : 4)
    switch choice {
    case 0: number(&random)
    case 1: emit(["true", "false", "null"][random.below(3)])
    case 2, 3: string(&random)
    case 4, 5: array(&random, levels: levels)
    default: object(&random, levels: levels)
    }
  }

  private mutating func array(_ random: inout SplitMix64, levels: Int) {
    container(&random, levels: levels, keyed: false)
  }

  private mutating func object(_ random: inout SplitMix64, levels: Int) {
    container(&random, levels: levels, keyed: true)
  }

  /// An array, or an object (`keyed`), of up to three values, a trailing comma perhaps.
  private mutating func container(_ random: inout SplitMix64, levels: Int, keyed: Bool) {
    open(keyed ? "{" : "[")
    trivia(&random)
    let count = random.below(4)
    for index in 0..<count {
      if index > 0 {
        emit(",")
        trivia(&random)
      }
      if keyed {
        key(&random, index: index)
        trivia(&random)
        emit(":")
        trivia(&random)
      }
      value(&random, levels: levels - 1)
      trivia(&random)
    }
    if json5, count > 0, random.below(3) == 0 {
      emit(",")
      trivia(&random)
    }
    close(keyed ? "}" : "]")
  }

  /// A key unique in its object (its index is in it).
  private mutating func key(_ random: inout SplitMix64, index: Int) {
    if json5, random.below(2) == 0 {
      emit(["k", "_k", "$k", "key"][random.below(4)] + String(index))
    } else {
      string(&random, suffix: "k\(index)")
    }
  }

  private mutating func number(_ random: inout SplitMix64) {
    let plain = ["0", "7", "-12", "3.25", "1e3", "-0.5E-2"]
    let json5Only = ["0x1F", ".5", "+4", "5."]
    let choices = json5 ? plain + json5Only : plain
    emit(choices[random.below(choices.count)])
  }

  /// A string holding brackets, the other quote, comment openers and escapes of every kind.
  private mutating func string(_ random: inout SplitMix64, suffix: String = "") {
    let quote = json5 && random.below(2) == 0 ? "'" : "\""
    var pieces = [
      "[", "{", "]", "}", "//", "/*", "*/", " ", "a", "é", "\\\"", "\\\\", "\\/", "\\n",
      "\\u0022", "\\u005B", "\\u005c", "\\u007B", quote == "'" ? "\"" : "'",
    ]
    if json5 {
      pieces += ["\\'", "\\x27", "\\x5B", "\\x22", "\\\n", "\\\r\n"]
    }
    var text = quote
    for _ in 0..<random.below(6) { text += pieces[random.below(pieces.count)] }
    emit(text + suffix + quote)
  }

  /// Whitespace and (JSON5) comments holding brackets, quotes and the other comment's marks.
  private mutating func trivia(_ random: inout SplitMix64, atEnd: Bool = false) {
    let spaces = [" ", "\t", "\n", "\r", "\r\n"] + (json5 ? ["\u{0B}", "\u{0C}"] : [])
    let inside = ["[", "{", "]", "}", "\"", "'", "/*", "//", "\\", " ", "x", "*", "/"]
    for _ in 0..<random.below(3) {
      switch json5 ? random.below(4) : 0 {
      case 1:
        var text = "//"
        for _ in 0..<random.below(5) { text += inside[random.below(inside.count)] }
        emit(text.replacingOccurrences(of: "\n", with: ""))
        if atEnd && random.below(2) == 0 { return }  // a comment ended by the end of the file
        emit(["\n", "\r", "\r\n"][random.below(3)])
      case 2:
        var text = ""
        for _ in 0..<random.below(5) {
          text += (inside + ["\n", "\r", "**"])[random.below(inside.count + 3)]
        }
        while text.contains("*/") { text = text.replacingOccurrences(of: "*/", with: "* /") }
        emit("/*" + text + (text.hasSuffix("/") || text.isEmpty ? " " : "") + "*/")
      default:
        emit(spaces[random.below(spaces.count)])
      }
    }
  }
}
