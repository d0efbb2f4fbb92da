@testable import StoicCollector
@testable import StoicForwarding

/// The OTLP decoders the collector uses on request bodies, protobuf and JSON, for both
/// signals (the input's first byte picks logs, bit 0 clear, or metrics).
///
/// For a protobuf logs body, the collector's check-and-count walk
/// (`OTLPLogsProtobufSummary`) must agree with the decoder: the same error for bytes the
/// decoder refuses, the same resources and record counts for bytes it accepts. For a JSON logs
/// body, so must the collector's JSON to protobuf walk (`OTLPLogsJSONTranscoder`) wherever it
/// does not give up.
///
/// What must hold for a body that decodes: its protobuf encoding decodes to a request that
/// encodes to the same bytes (protobuf is how the collector stores a request: compared as
/// bytes, since a NaN value is never equal to itself), and its JSON encoding decodes to a
/// request with that same JSON and protobuf encodings: neither encoding loses or changes
/// anything (but the sign and payload bits of a NaN, which JSON writes as `"NaN"`).
enum OTLPTarget {
  static let protobuf = target(.protobuf)
  static let json = target(.json)

  static func target(_ encoding: OTLPEncoding) -> FuzzTarget {
    FuzzTarget(
      name: "otlp-\(encoding.rawValue)",
      summary:
        "OTLP \(encoding.rawValue) request bodies (logs, metrics): decode, re-encode both ways",
      maxLength: 4096,
      run: { bytes in
        var input = FuzzInput(bytes)
        let metrics = input.bool()
        let body = input.rest()
        if metrics {
          check(OTLP.ExportMetricsServiceRequest.self, body, encoding)
        } else {
          check(OTLP.ExportLogsServiceRequest.self, body, encoding)
          if encoding == .protobuf { checkSummary(body) } else { checkTranscoder(body) }
        }
      },
      seeds: {
        let requests: [(UInt8, [UInt8])] = [
          (0, OTLPSeeds.logs.encoded(as: encoding)),
          (1, OTLPSeeds.metrics.encoded(as: encoding)),
          (0, OTLP.ExportLogsServiceRequest(resourceLogs: []).encoded(as: encoding)),
        ]
        let seeds = requests.map { [$0.0] + $0.1 }
        var flipped = seeds[0]
        flipped[flipped.count / 2] ^= 0x20
        return seeds + [flipped, Array(seeds[1].prefix(seeds[1].count / 2))]
      })
  }

  static func check<Message: OTLPMessage>(
    _ type: Message.Type, _ body: [UInt8], _ encoding: OTLPEncoding
  ) {
    guard let message = try? Message(decoding: body, as: encoding) else { return }
    let encoded = message.encoded(as: .protobuf)
    guard let again = try? Message(decoding: encoded, as: .protobuf) else {
      FuzzCheck.fail("a decoded \(Message.self) encodes to protobuf that does not decode")
    }
    FuzzCheck.require(
      again.encoded(as: .protobuf) == encoded, "a \(Message.self) changed through protobuf")
    let json = message.encoded(as: .json)
    guard let fromJSON = try? Message(decoding: json, as: .json) else {
      FuzzCheck.fail("a decoded \(Message.self) encodes to JSON that does not decode")
    }
    // JSON writes every NaN as "NaN": its sign and payload bits do not survive, by design.
    let hasNaN = String(decoding: json, as: UTF8.self).contains("\"NaN\"")
    FuzzCheck.require(
      fromJSON.encoded(as: .json) == json && (hasNaN || fromJSON.encoded(as: .protobuf) == encoded),
      "a \(Message.self) changed through JSON:\n\(message)\nbecame\n\(fromJSON)")
  }

  /// The collector's JSON to protobuf walk (`OTLPLogsJSONTranscoder`) agrees with the decoder on
  /// `body`: whatever it transcodes the decoder accepts, to the same protobuf, resources and
  /// record counts (it may give up on what the decoder accepts: the collector decodes it then).
  static func checkTranscoder(_ body: [UInt8]) {
    guard let transcoded = OTLPLogsJSONTranscoder.transcode(body) else { return }
    guard let request = try? OTLP.ExportLogsServiceRequest(json: body) else {
      FuzzCheck.fail("the JSON transcoder accepted a logs body the decoder refuses")
    }
    FuzzCheck.require(
      transcoded.protobuf == request.encoded(as: .protobuf),
      "the JSON transcoder's protobuf differs from the decoder's")
    let counts = request.resourceLogs.map { $0.scopeLogs.reduce(0) { $0 + $1.logRecords.count } }
    FuzzCheck.require(
      transcoded.resources.map(\.logRecords) == counts,
      "the JSON transcoder's record counts differ from the decoder's")
    let resources = { (resources: [OTLP.Resource?]) in
      OTLP.ExportLogsServiceRequest(resourceLogs: resources.map { OTLP.ResourceLogs(resource: $0) })
        .encoded(as: .protobuf)
    }
    FuzzCheck.require(
      resources(transcoded.resources.map(\.resource))
        == resources(request.resourceLogs.map(\.resource)),
      "the JSON transcoder's resources differ from the decoder's")
  }

  /// The summary walk and the decoder agree on `body`.
  static func checkSummary(_ body: [UInt8]) {
    let decoded = Result { () throws(ForwardingError) in
      try OTLP.ExportLogsServiceRequest(protobuf: body)
    }
    let summary = Result { () throws(ForwardingError) in
      try OTLPLogsProtobufSummary.summarize(body)
    }
    switch (decoded, summary) {
    case (.success(let request), .success(let resources)):
      let counts = request.resourceLogs.map {
        $0.scopeLogs.reduce(0) { $0 + $1.logRecords.count }
      }
      FuzzCheck.require(
        resources.map(\.logRecords) == counts,
        "the summary counts \(resources.map(\.logRecords)), the decoder \(counts)")
      // Resources compared as their encodings: a NaN attribute is never equal to itself.
      let summarized = OTLP.ExportLogsServiceRequest(
        resourceLogs: resources.map { OTLP.ResourceLogs(resource: $0.resource) })
      let decodedResources = OTLP.ExportLogsServiceRequest(
        resourceLogs: request.resourceLogs.map { OTLP.ResourceLogs(resource: $0.resource) })
      FuzzCheck.require(
        summarized.encoded(as: .protobuf) == decodedResources.encoded(as: .protobuf),
        "the summary's resources differ from the decoder's")
    case (.failure(let refused), .failure(let summaryRefused)):
      FuzzCheck.require(
        refused == summaryRefused,
        "the decoder refused with \(refused), the summary with \(summaryRefused)")
    case (.success, .failure(let error)):
      FuzzCheck.fail("the summary refused what the decoder accepts: \(error)")
    case (.failure(let error), .success):
      FuzzCheck.fail("the summary accepted what the decoder refuses: \(error)")
    }
  }
}
