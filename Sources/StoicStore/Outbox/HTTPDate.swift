/// Foundation-free parsing of the HTTP date format the outbox needs.
package enum HTTPDate {
  private static let dayNames = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
  private static let monthNames = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
  ]

  /// Seconds since the Unix epoch for an IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), or nil.
  ///
  /// The layout is fixed (29 characters); fields are range-checked, including the day of the
  /// month against the month's length, and the day name must be one of the seven.
  static func parseIMFFixdate(_ text: Substring) -> Int64? {
    let bytes = Array(text.utf8)
    guard bytes.count == 29 else { return nil }
    func string(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }
    func number(_ range: Range<Int>) -> Int? {
      var value = 0
      for byte in bytes[range] {
        guard byte >= 0x30 && byte <= 0x39 else { return nil }
        value = value * 10 + Int(byte - 0x30)
      }
      return value
    }
    guard dayNames.contains(string(0..<3)), string(3..<5) == ", ", bytes[7] == 0x20,
      bytes[11] == 0x20, bytes[16] == 0x20, bytes[19] == 0x3A, bytes[22] == 0x3A,
      string(25..<29) == " GMT"
    else { return nil }
    guard let day = number(5..<7), let monthIndex = monthNames.firstIndex(of: string(8..<11)),
      let year = number(12..<16), let hour = number(17..<19), let minute = number(20..<22),
      let second = number(23..<25)
    else { return nil }
    let month = monthIndex + 1
    guard day >= 1, day <= daysInMonth(month, year: year), hour < 24, minute < 60, second < 61
    else { return nil }
    let days = Int64(daysFromCivil(year: year, month: month, day: day))
    return days * 86_400 + Int64(hour * 3600 + minute * 60 + second)
  }

  package static func daysInMonth(_ month: Int, year: Int) -> Int {
    switch month {
    case 2:
      let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
      return leap ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }

  /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
  package static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
    let shiftedYear = month <= 2 ? year - 1 : year
    let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
    let yearOfEra = shiftedYear - era * 400
    let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }
}
