/// The error the forwarding layer throws: a body that does not decode, a compressed stream
/// that is damaged or too large, a configuration that cannot work.
///
/// Messages name what was wrong and where (a byte offset, a field), never the bytes
/// themselves: a collector may answer a client with the message, and a log line may carry it,
/// so neither may echo a request body or a header value.
public struct ForwardingError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What went wrong, as a value to switch on.
  public enum Code: Sendable, Hashable, CustomStringConvertible {
    /// The input ended inside a value.
    case truncated
    /// The input breaks the format's rules (a bad tag, a bad varint, a JSON syntax error, a
    /// value of the wrong type).
    case malformed
    /// The input nests deeper than the decoder allows.
    case tooDeep
    /// A string is not valid UTF-8.
    case invalidUTF8
    /// The input, or what it expands to, is over a size limit.
    case tooLarge
    /// A compressed stream is damaged or the compressor failed.
    case compression
    /// A setting or argument cannot work (an endpoint that is not a URL, a header line that
    /// does not parse).
    case invalidArgument
    /// A setting asks for something this build cannot do on this platform (the gRPC protocol,
    /// a CA certificate file for the transport).
    case unsupported

    /// The code's name, such as `truncated`.
    public var description: String {
      switch self {
      case .truncated: "truncated"
      case .malformed: "malformed"
      case .tooDeep: "tooDeep"
      case .invalidUTF8: "invalidUTF8"
      case .tooLarge: "tooLarge"
      case .compression: "compression"
      case .invalidArgument: "invalidArgument"
      case .unsupported: "unsupported"
      }
    }
  }

  /// What went wrong.
  public var code: Code
  /// A sentence for a person; never contains input bytes or header values.
  public var message: String
  /// The byte offset in the input where decoding failed, where there is one.
  public var offset: Int?
  /// The environment variable whose value is wrong, where the error is about one
  /// (`OTEL_EXPORTER_OTLP_HEADERS`); the message names it too, and never holds its value.
  public var variable: String?

  /// Creates an error.
  public init(_ code: Code, _ message: String, offset: Int? = nil, variable: String? = nil) {
    self.code = code
    self.message = message
    self.offset = offset
    self.variable = variable
  }

  /// `code: message (at byte offset)`.
  public var description: String {
    if let offset { return "\(code): \(message) (at byte \(offset))" }
    return "\(code): \(message)"
  }
}
