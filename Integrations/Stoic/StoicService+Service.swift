// The swift-service-lifecycle conformance is built only with the `ServiceLifecycle` trait.
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
