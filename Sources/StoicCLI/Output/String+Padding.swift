extension String {
  /// The string padded with spaces to `width` characters (never cut).
  func padding(_ width: Int) -> String {
    count >= width ? self + " " : self + String(repeating: " ", count: width - count)
  }
}
