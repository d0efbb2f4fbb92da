// `import Stoic` is the one import an app needs: the layers' types (the configuration's
// options, the spool, the forwarder) and, with their traits, swift-log's `Logger`,
// swift-metrics' `Counter`/`Timer`/… and swift-service-lifecycle's `ServiceGroup`.
@_exported public import StoicForwarding
@_exported public import StoicStore
@_exported public import StoicTelemetry

#if SwiftLog
  @_exported public import Logging
#endif
#if SwiftMetrics
  @_exported public import Metrics
#endif
#if ServiceLifecycle
  @_exported public import ServiceLifecycle
#endif
