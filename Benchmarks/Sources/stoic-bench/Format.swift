import Foundation

/// Number formatting for the report.
enum Format {
  /// Whole numbers with thousands separators from 100 up, three significant digits below.
  static func number(_ value: Double) -> String {
    guard value.isFinite else { return "n/a" }
    if abs(value) >= 100 {
      let digits = String(Int(value.rounded()))
      var grouped = ""
      for (index, character) in digits.reversed().enumerated() {
        if index > 0, index % 3 == 0, character != "-" { grouped.append(",") }
        grouped.append(character)
      }
      return String(grouped.reversed())
    }
    if abs(value) >= 10 { return String(format: "%.1f", value) }
    if abs(value) >= 1 { return String(format: "%.2f", value) }
    return String(format: "%.3g", value)
  }

  /// A count with thousands separators.
  static func count(_ value: Int) -> String {
    value >= 100 ? number(Double(value)) : String(value)
  }

  /// A ratio such as `31.4×` or `0.87×`.
  static func ratio(_ value: Double) -> String {
    guard value.isFinite else { return "n/a" }
    return (value >= 10 ? String(format: "%.1f", value) : String(format: "%.2f", value)) + "×"
  }

  /// Bytes as KiB / MiB / GiB.
  static func bytes(_ count: Int) -> String {
    let value = Double(count)
    if value >= Double(1 << 30) { return String(format: "%.2f GiB", value / Double(1 << 30)) }
    if value >= Double(1 << 20) { return String(format: "%.1f MiB", value / Double(1 << 20)) }
    return String(format: "%.1f KiB", value / 1024)
  }
}
