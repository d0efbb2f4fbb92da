import CBenchSystem

/// The allocations (malloc, calloc, realloc and the aligned ones) the calling thread has made
/// so far, counted by the benchmark's allocator hooks.
public enum Allocations {
  /// The count so far.
  public static func count() -> UInt { UInt(stoic_bench_allocations()) }
}
