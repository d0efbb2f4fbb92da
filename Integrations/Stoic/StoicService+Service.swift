// The swift-service-lifecycle conformance is built only with the `ServiceLifecycle` trait.
//
// It has no unavailable stand-in, unlike StoicLogHandler and StoicMetricsFactory: what the
// trait adds is a conformance to swift-service-lifecycle's `Service`, and with the trait off
// that module is not in Stoic's build at all (the dependency is not even fetched), so Stoic
// cannot name the protocol to declare an unavailable conformance to it, and a declaration of
// its own would shadow the real one. Everything else stays: `run()` (until cancelled, then the
// shutdown) and `shutdown(timeout:)`. A package that puts the handle in a `ServiceGroup` without
// the trait gets swift-service-lifecycle's "does not conform to 'Service'"; the README's table
// of traits and StoicService's documentation name the trait.
#if ServiceLifecycle
  public import ServiceLifecycle

  extension StoicService: Service {
    /// Suspends until the service group shuts down gracefully (or the task is cancelled).
    func untilGracefulShutdown() async {
      await cancelWhenGracefulShutdown {
        await Self.untilCancelled()
      }
    }
  }
#endif
