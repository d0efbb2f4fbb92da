/// Sizes for people: `512 B`, `4.0 KiB`, `12.3 MiB`, `1.1 GiB`.
public enum ByteCount {
  /// `bytes` in the largest binary unit that keeps it at or above 1, one decimal.
  public static func describe(_ bytes: UInt64) -> String {
    guard bytes >= 1024 else { return "\(bytes) B" }
    let units = ["KiB", "MiB", "GiB", "TiB", "PiB", "EiB"]
    var value = Double(bytes) / 1024
    var unit = 0
    while value >= 1024, unit < units.count - 1 {
      value /= 1024
      unit += 1
    }
    let tenths = Int((value * 10).rounded())
    return "\(tenths / 10).\(tenths % 10) \(units[unit])"
  }
}
