package import StoicTesting

/// Inputs for the decoders' robustness tests: random JSON over OTLP's vocabulary (so that some
/// documents are accepted) and random changes to valid bytes.
package enum DecoderInputs {
  /// OTLP's JSON keys, and a few that are not.
  package static let vocabulary = [
    "resourceLogs", "resourceMetrics", "resource", "attributes", "scopeLogs", "scopeMetrics",
    "logRecords", "metrics", "body", "stringValue", "intValue", "doubleValue", "boolValue",
    "bytesValue", "arrayValue", "kvlistValue", "values", "key", "value", "timeUnixNano",
    "severityNumber", "traceId", "sum", "gauge", "histogram", "dataPoints", "asInt",
    "asDouble", "bucketCounts", "explicitBounds", "partialSuccess", "rejectedLogRecords",
    "code", "message", "name", "x",
  ]

  /// A random JSON value (an object when `object`), mostly well formed.
  package static func randomJSON(_ random: inout SplitMix64, depth: Int, object: Bool = false)
    -> String
  {
    let kind = object ? 0 : Int.random(in: 0...(depth > 0 ? 9 : 7), using: &random)
    switch kind {
    case 0:
      let members = (0..<Int.random(in: 0...3, using: &random)).map { _ in
        "\"" + vocabulary[Int.random(in: 0..<vocabulary.count, using: &random)] + "\":"
          + randomJSON(&random, depth: depth - 1)
      }
      return "{" + members.joined(separator: ",") + "}"
    case 1: return "null"
    case 2: return Bool.random(using: &random) ? "true" : "false"
    case 3: return String(Int.random(in: -300...300, using: &random))
    case 4:
      return ["1.5", "-0.0", "1e308", "2E-5", "\"NaN\"", "\"-Infinity\""][
        Int.random(in: 0...5, using: &random)]
    case 5: return "\"" + String(UInt64.random(in: 0...UInt64.max, using: &random)) + "\""
    case 6:
      return ["\"\"", "\"5b8e\"", "\"TQ==\"", "\"a\\u00e9\\n\"", "\"x\""][
        Int.random(in: 0...4, using: &random)]
    case 7: return ["{", "]", ",", "\"", "nul"][Int.random(in: 0...4, using: &random)]
    default:
      return "["
        + (0..<Int.random(in: 0...3, using: &random)).map { _ in
          randomJSON(&random, depth: depth - 1, object: Bool.random(using: &random))
        }.joined(separator: ",") + "]"
    }
  }

  /// One random change: a bit flipped, a byte set, bytes inserted, removed, duplicated, or
  /// the tail cut.
  package static func mutate(_ bytes: inout [UInt8], _ random: inout SplitMix64) {
    guard !bytes.isEmpty else {
      bytes.append(UInt8.random(in: 0...255, using: &random))
      return
    }
    let position = Int.random(in: 0..<bytes.count, using: &random)
    switch Int.random(in: 0...5, using: &random) {
    case 0: bytes[position] ^= 1 << UInt8.random(in: 0...7, using: &random)
    case 1:
      bytes[position] =
        [0x00, 0xFF, 0x80, 0x7F, 0x22, 0x5C, 0x7B][Int.random(in: 0...6, using: &random)]
    case 2:
      bytes.insert(
        contentsOf: (0..<Int.random(in: 1...4, using: &random)).map { _ in
          UInt8.random(in: 0...255, using: &random)
        }, at: position)
    case 3:
      bytes.removeSubrange(
        position..<min(bytes.count, position + Int.random(in: 1...8, using: &random)))
    case 4:
      let end = min(bytes.count, position + Int.random(in: 1...16, using: &random))
      bytes.insert(contentsOf: Array(bytes[position..<end]), at: position)
    default: bytes.removeLast(bytes.count - position)
    }
  }
}
