/// The two OTLP/HTTP body encodings.
public enum OTLPEncoding: String, Sendable, Hashable, CaseIterable {
  /// Binary protobuf, `application/x-protobuf`: the OpenTelemetry SDKs' default, smaller and
  /// faster to write and read.
  case protobuf
  /// OTLP's JSON mapping of protobuf, `application/json`: 64-bit integers as decimal strings,
  /// enums as integers, trace and span ids as hex, other bytes as base64.
  case json

  /// The `Content-Type` that says so.
  public var contentType: String {
    switch self {
    case .protobuf: "application/x-protobuf"
    case .json: "application/json"
    }
  }

  /// The encoding a `Content-Type` header names (parameters such as `; charset=utf-8` and case
  /// are ignored), or `nil` for any other media type.
  public init?(contentType: String) {
    let mediaType = contentType.split(separator: ";", maxSplits: 1).first ?? ""
    switch mediaType.trimmingSpaces.lowercased() {
    case "application/x-protobuf", "application/protobuf": self = .protobuf
    case "application/json": self = .json
    default: return nil
    }
  }
}

extension Substring {
  /// The substring without leading and trailing spaces and tabs.
  var trimmingSpaces: Substring {
    var slice = self
    while let first = slice.first, first == " " || first == "\t" { slice = slice.dropFirst() }
    while let last = slice.last, last == " " || last == "\t" { slice = slice.dropLast() }
    return slice
  }
}
