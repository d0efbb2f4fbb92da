import CStoicAtomics
import StoicStore

/// One series: its identity and its cells (``MetricsLiveFormat``), in a live extent's mapping or,
/// where the live file could not hold it, in memory of the process.
///
/// Handles keep the series, which keeps the memory of its cells (``owner``) alive, so a store
/// through a handle can never reach unmapped memory, even after the spool is closed.
final class MetricsSeries: @unchecked Sendable {
  let key: MetricSeriesKey
  /// The first cell; 8-byte aligned.
  let cells: UnsafeMutableRawPointer
  /// What owns the cells' memory: a live extent or a ``MetricsHeapCells``.
  let owner: AnyObject
  /// Whether the cells are in the live file (survive a crash of the process).
  let persisted: Bool
  /// The lock that orders resets with the sampler, and the clock.
  let context: MetricsSeriesContext

  init(
    key: MetricSeriesKey, cells: UnsafeMutableRawPointer, owner: AnyObject, persisted: Bool,
    context: MetricsSeriesContext
  ) {
    self.key = key
    self.cells = cells
    self.owner = owner
    self.persisted = persisted
    self.context = context
  }

  /// Cell `index`.
  @inline(__always)
  func cell(_ index: Int) -> UnsafeMutableRawPointer { cells + index * 8 }

  func load(_ index: Int) -> UInt64 { stoic_atomic_load(cell(index)) }

  func loadDouble(_ index: Int) -> Double { Double(bitPattern: load(index)) }

  /// The cells a new series of `key` starts with (all values empty, start `now`).
  static func initialCells(_ key: MetricSeriesKey, now: UInt64) -> [UInt64] {
    let kind = key.kind.series
    var cells = [UInt64](repeating: 0, count: kind.cellCount(boundCount: key.bounds.count))
    cells[MetricsLiveFormat.startCell] = now
    cells[MetricsLiveFormat.sampledStartCell] = now
    kind.initialize(&cells)
    return cells
  }

  /// The cells that continue from `sample` (its series' last synced sample), marked as sampled.
  static func cells(continuing sample: MetricSample) -> [UInt64] {
    let key = MetricSeriesKey(sample)
    var cells = initialCells(key, now: sample.startNanoseconds)
    cells[MetricsLiveFormat.sampledMarkerCell] = key.kind.series.store(sample.value, into: &cells)
    return cells
  }

  /// The series' current value as a sample taken at `time`, and its change marker.
  func read(time: UInt64) -> (sample: MetricSample, marker: UInt64) {
    let (value, marker) = key.kind.series.read(self)
    let sample = MetricSample(
      name: key.name, dimensions: key.dimensions, kind: key.kind, unit: key.unit,
      startNanoseconds: load(MetricsLiveFormat.startCell), timeNanoseconds: time, value: value)
    return (sample, marker)
  }

  /// Whether the series changed since its last sample: its marker or its start differ from
  /// the sampled ones.
  func changed(marker: UInt64, start: UInt64) -> Bool {
    marker != load(MetricsLiveFormat.sampledMarkerCell)
      || start != load(MetricsLiveFormat.sampledStartCell)
  }

  /// Records that the journal now holds a sample with `marker` and `start`.
  func markSampled(marker: UInt64, start: UInt64) {
    stoic_atomic_store(cell(MetricsLiveFormat.sampledMarkerCell), marker)
    stoic_atomic_store(cell(MetricsLiveFormat.sampledStartCell), start)
  }

  /// Starts the cumulative value again from zero, now: a new start time, under the sampler's
  /// lock so that no sample pairs the old start with the new value.
  func reset() {
    context.sampleLock.withLock { _ in
      stoic_atomic_store(cell(MetricsLiveFormat.startCell), context.clock())
      stoic_atomic_store(cell(MetricsLiveFormat.valueCell), 0)
    }
  }
}

/// What every series of a spool shares: the lock that orders a reset with the sampler, and the
/// clock (unix nanoseconds).
final class MetricsSeriesContext: Sendable {
  let sampleLock = SleepingLock(())
  let clock: @Sendable () -> UInt64

  init(clock: @escaping @Sendable () -> UInt64) {
    self.clock = clock
  }
}

/// Cells kept in the process's memory, for a series the live file could not hold.
final class MetricsHeapCells: @unchecked Sendable {
  let pointer: UnsafeMutableRawPointer

  /// Cells holding `values`, aligned to a cache line.
  init(_ values: [UInt64]) {
    let size = max(values.count, 1) * 8
    pointer = UnsafeMutableRawPointer.allocate(
      byteCount: size, alignment: MetricsLiveFormat.recordAlignment)
    pointer.initializeMemory(as: UInt8.self, repeating: 0, count: size)
    for (index, value) in values.enumerated() {
      (pointer + index * 8).storeBytes(of: value, as: UInt64.self)
    }
  }

  deinit {
    pointer.deallocate()
  }
}
