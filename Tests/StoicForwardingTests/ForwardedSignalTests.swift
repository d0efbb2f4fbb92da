import Testing

@testable import StoicForwarding

/// The one place each persisted tag meets its signal's code: every stream and every OTLP
/// signal maps to the conformer that names it back, and the names, key tags and paths a
/// conformer gives are the ones keys and requests have always had (a key must not change
/// across versions, or a batch re-formed after an upgrade would be sent twice).
@Suite("Forwarded signals")
struct ForwardedSignalTests {
  @Test("each stream and each OTLP signal maps to the conformer that names it back")
  func mappingsRoundTrip() {
    for stream in SpoolStream.allCases {
      let forwarded = stream.forwarded
      #expect(forwarded.stream == stream)
      #expect(ObjectIdentifier(forwarded.signal.forwarded) == ObjectIdentifier(forwarded))
      #expect(stream.signal == forwarded.signal)
    }
    for signal in OTLPSignal.allCases {
      #expect(signal.forwarded.signal == signal)
      #expect(signal.forwarded.stream.signal == signal)
    }
  }

  @Test("names, key tags and paths are the persisted ones, and distinct")
  func persistedNames() {
    #expect(SpoolStream.logs.description == "logs")
    #expect(SpoolStream.metrics.description == "metrics")
    #expect(SpoolStream.logs.keyTag == "l")
    #expect(SpoolStream.metrics.keyTag == "m")
    #expect(OTLPSignal.logs.defaultPath == "/v1/logs")
    #expect(OTLPSignal.metrics.defaultPath == "/v1/metrics")
    let tags = SpoolStream.allCases.map(\.keyTag)
    #expect(Set(tags).count == tags.count)
    let paths = OTLPSignal.allCases.map(\.defaultPath)
    #expect(Set(paths).count == paths.count)
  }
}
