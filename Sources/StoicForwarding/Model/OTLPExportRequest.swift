/// An OTLP `Export…ServiceRequest` (``OTLP/ExportLogsServiceRequest``,
/// ``OTLP/ExportMetricsServiceRequest``, ``OTLP/ExportTraceServiceRequest``): a message that
/// names its signal, which decides the path ``OTLPExporter/export(_:idempotencyKey:)-(Request,_)``
/// sends it to and how the answer to it is read.
public protocol OTLPExportRequest: OTLPMessage {
  /// The signal the request carries.
  static var signal: OTLPSignal { get }
}
