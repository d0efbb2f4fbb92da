import CBenchSystem

/// A counter in a shared mapped file: a child stores how many log calls have returned, and
/// the value survives its SIGKILL for the parent to read.
public struct SharedCounter: @unchecked Sendable {
  private let pointer: UnsafeMutablePointer<UInt64>

  /// Maps the counter file at `path` (made when missing).
  public init(path: String) throws {
    guard let mapped = stoic_bench_map_counter(path) else {
      throw BenchError("cannot map the counter \(path)")
    }
    pointer = mapped
  }

  /// The count.
  public var value: UInt64 {
    get { stoic_bench_counter_load(pointer) }
    nonmutating set { stoic_bench_counter_store(pointer, newValue) }
  }
}
