/// What the forwarder says about itself on every resource, as the semantic conventions'
/// `telemetry.sdk.*` attributes
/// (<https://opentelemetry.io/docs/specs/semconv/resource/#telemetry-sdk>), and the version of
/// its instrumentation scope.
public enum TelemetrySDK {
  /// `telemetry.sdk.name`: `stoic`.
  public static let name = "stoic"
  /// `telemetry.sdk.language`: `swift`.
  public static let language = "swift"
  /// `telemetry.sdk.version`, and the instrumentation scope's version: the package's version
  /// (the `stoic version` command prints the same).
  public static let version = "0.1.0"

  /// The three attributes, in that order.
  public static var resourceAttributes: [(String, String)] {
    [
      ("telemetry.sdk.name", name), ("telemetry.sdk.language", language),
      ("telemetry.sdk.version", version),
    ]
  }
}
