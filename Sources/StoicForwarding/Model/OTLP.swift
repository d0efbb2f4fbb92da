/// The OpenTelemetry Protocol's messages for logs and metrics, as Swift values: the subset Stoic
/// sends and its example collector receives, shaped and named as in `opentelemetry-proto`
/// (`logs/v1/logs.proto`, `metrics/v1/metrics.proto`, `common/v1/common.proto`,
/// `resource/v1/resource.proto`, `collector/*/v1/*_service.proto`).
///
/// Each request and response encodes to and decodes from both OTLP/HTTP encodings: binary
/// protobuf (`application/x-protobuf`) and OTLP's JSON mapping (`application/json`). Fields
/// outside the subset are skipped when decoding.
public enum OTLP {}
