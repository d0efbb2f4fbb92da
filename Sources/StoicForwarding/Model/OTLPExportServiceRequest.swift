/// One signal's `Export…ServiceRequest` (``OTLP/ExportLogsServiceRequest``,
/// ``OTLP/ExportMetricsServiceRequest``, ``OTLP/ExportTraceServiceRequest``): its resource
/// groups, whose nesting every signal shares (``OTLPResourceGroup``), so that a request is
/// written and read once per encoding for every signal, over its scope group's item codec
/// (``OTLPScopeGroup``). A conformer names its groups and its signal, and answers ``OTLPMessage``
/// with the four methods here.
protocol OTLPExportServiceRequest: OTLPExportRequest {
  /// The signal's `Resource…` message.
  associatedtype Group: OTLPResourceGroup
  /// The request's groups (`resourceLogs`).
  var resourceGroups: [Group] { get }
  /// A request of `resourceGroups`.
  init(resourceGroups: [Group])
}

extension OTLPExportServiceRequest {
  /// Appends the binary protobuf encoding to `buffer`.
  func appendProtobuf(to buffer: inout [UInt8]) {
    ProtobufWriter.append(to: &buffer) {
      OTLPCommonProtobuf.writeRequest(resourceGroups, to: &$0, item: Group.ScopeGroup.writeItem)
    }
  }

  /// Decodes binary protobuf.
  init(readingProtobuf bytes: [UInt8]) throws(ForwardingError) {
    var reader = ProtobufReader(bytes)
    self.init(
      resourceGroups: try OTLPCommonProtobuf.readRequest(&reader, item: Group.ScopeGroup.readItem))
  }

  /// Appends the OTLP JSON encoding to `buffer`.
  func appendJSON(to buffer: inout [UInt8]) {
    JSONWriter.append(to: &buffer) {
      OTLPCommonJSON.writeRequest(resourceGroups, to: &$0, item: Group.ScopeGroup.writeItem)
    }
  }

  /// Decodes OTLP JSON.
  init(readingJSON bytes: [UInt8]) throws(ForwardingError) {
    self.init(
      resourceGroups: try OTLPCommonJSON.decodeDocument(bytes) { (reader) throws(ForwardingError) in
        try OTLPCommonJSON.readRequest(&reader, item: Group.ScopeGroup.readItem)
      })
  }
}
