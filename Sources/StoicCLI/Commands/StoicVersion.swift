/// The tool's version.
public enum StoicVersion {
  /// `0.1.0`.
  public static let current = "0.1.0"
}
