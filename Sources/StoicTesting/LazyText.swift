/// Text built only when read: crash image descriptions are long and almost never read (only
/// for violations), so the explorer does not build one for every image it checks.
struct LazyText: Sendable {
  private let make: @Sendable () -> String

  /// Text that is already built.
  init(_ text: String) { make = { text } }

  /// Text built by `make` each time it is read.
  init(building make: @escaping @Sendable () -> String) { self.make = make }

  /// The text.
  var text: String { make() }
}
