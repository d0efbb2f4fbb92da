import StoicTesting

@testable import StoicStore
@testable import StoicTelemetry

/// The metrics spool's live file (`live-0.map`, ``MetricsLiveFormat``), opened as the spool
/// opens it (``MetricsLiveFile``) on the simulated disk, with the boot identity its header
/// names, so that a header that checks is adopted.
///
/// The input is a flags byte, then the extent's bytes (zeros to ``minimumExtentSize``). With
/// flag bit 0 the header's and the records' checksums are set right first, so that the fuzzer
/// reaches the records' fields without having to find CRCs.
///
/// What must hold: open never fails and never loses the bytes (a live file it does not adopt is
/// still on disk, renamed); what it adopts a second open adopts too, with the same series and
/// cells; a series allocated after the first open is there, after the others, on a third.
enum MetricsLiveTarget {
  static let directory = "/fuzz/metrics"

  static let target = FuzzTarget(
    name: "metrics-live",
    summary: "metrics live file: open adopts or sets aside, reopen adopts the same, allocation",
    maxLength: MetricsLiveFormat.minimumExtentSize + 1,
    run: { bytes in
      var input = FuzzInput(bytes)
      let fixes = input.bool()
      var image = input.rest()
      if image.count < MetricsLiveFormat.minimumExtentSize {
        image += [UInt8](repeating: 0, count: MetricsLiveFormat.minimumExtentSize - image.count)
      }
      if fixes { fixChecksums(&image) }
      check(image)
    },
    seeds: {
      var seeds: [[UInt8]] = []
      for keys in [[], sampleKeys, Array(sampleKeys.prefix(1))] {
        var image = MetricsLiveFormat.header(
          index: 0, extentSize: UInt64(MetricsLiveFormat.minimumExtentSize),
          boot: Array(0..<16))
        for (index, key) in keys.enumerated() {
          let cells =
            (0..<MetricsLiveFormat.cellCount(kind: key.kind, boundCount: key.bounds.count))
            .map { UInt64($0 + index) }
          image += MetricsLiveFormat.record(key: key, cells: cells)
        }
        setUsed(&image, UInt64(image.count))
        // The seeds end after the last record: the target pads with zeros.
        seeds.append([0] + image)
      }
      var flipped = seeds[1]
      flipped[1 + MetricsLiveFormat.headerSize + 20] ^= 0x08
      return seeds + [flipped, [1] + Array(flipped.dropFirst())]
    })

  /// Series of each kind.
  static let sampleKeys: [MetricSeriesKey] = [
    MetricSeriesKey(kind: .counter, name: "requests", dimensions: [("method", "GET")]),
    MetricSeriesKey(kind: .gauge, name: "queue.depth", unit: "{records}", dimensions: []),
    MetricSeriesKey(
      kind: .histogram, name: "latency", unit: "s", dimensions: [("route", "/")],
      bounds: [0.01, 0.1, 1]),
  ]

  static func setUsed(_ image: inout [UInt8], _ used: UInt64) {
    withUnsafeBytes(of: used.littleEndian) {
      image.replaceSubrange(
        MetricsLiveFormat.usedOffset..<(MetricsLiveFormat.usedOffset + 8), with: $0)
    }
  }

  static func u32(_ image: [UInt8], _ offset: Int) -> Int {
    (0..<4).reduce(0) { $0 | Int(image[offset + $1]) << (8 * $1) }
  }

  static func putU32(_ image: inout [UInt8], _ offset: Int, _ value: UInt32) {
    for index in 0..<4 { image[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * index)) }
  }

  /// Sets the header's CRC, and each record's as far as the records' lengths lead.
  static func fixChecksums(_ image: inout [UInt8]) {
    putU32(
      &image, MetricsLiveFormat.headerCRCOffset,
      CRC32C.checksum(Array(image[0..<MetricsLiveFormat.headerCRCOffset])))
    var offset = MetricsLiveFormat.headerSize
    while offset + MetricsLiveFormat.recordHeaderSize <= image.count {
      let length = u32(image, offset)
      guard length > 0, length % MetricsLiveFormat.recordAlignment == 0,
        offset + length <= image.count
      else { return }
      let cells = Int(image[offset + 10]) | Int(image[offset + 11]) << 8
      let descriptorSize = u32(image, offset + MetricsLiveFormat.recordDescriptorSizeOffset)
      let start = min(offset + length, offset + MetricsLiveFormat.recordHeaderSize + cells * 8)
      let end = min(offset + length, start + descriptorSize)
      let crc = CRC32C.checksum(
        Array(image[(offset + MetricsLiveFormat.recordKindOffset)..<(offset + 16)]))
      putU32(
        &image, offset + MetricsLiveFormat.recordCRCOffset,
        CRC32C.checksum(Array(image[start..<end]), continuing: crc))
      offset += length
    }
  }

  /// A series as an open found it: its key and cells.
  struct Series: Equatable {
    var key: MetricSeriesKey
    var cells: [UInt64]
  }

  static func open(_ disk: SimulatedFileSystem, boot: [UInt8]) -> (
    MetricsLiveFile, [Series], MetricsLiveFile.Opening
  ) {
    do throws(StoreError) {
      let (file, loaded, opening) = try MetricsLiveFile.open(
        directory: directory, fileSystem: disk,
        extentSize: MetricsLiveFormat.minimumExtentSize, boot: boot, events: .discard,
        lastSynced: { [] })
      let series = loaded.map { series in
        let count = MetricsLiveFormat.cellCount(
          kind: series.key.kind, boundCount: series.key.bounds.count)
        return Series(
          key: series.key,
          cells: (0..<count).map { series.cells.load(fromByteOffset: $0 * 8, as: UInt64.self) })
      }
      return (file, series, opening)
    } catch {
      FuzzCheck.fail("open failed: \(error)")
    }
  }

  static func check(_ image: [UInt8]) {
    let disk = SimulatedFileSystem()
    let path = StorePath.join(directory, MetricsLiveExtent.name(0))
    disk.setDurableContents(path, image)
    let boot = Array(image[MetricsLiveFormat.bootOffset..<(MetricsLiveFormat.bootOffset + 16)])
    let (file, first, opening) = open(disk, boot: boot)
    guard opening == .adopted else {
      FuzzLog.note("not adopted: \(opening)")
      FuzzCheck.require(first.isEmpty, "a rebuild from no samples made series")
      let names = (try? disk.list(directory)) ?? []
      FuzzCheck.require(
        names.contains { disk.contents(StorePath.join(directory, $0)) == image },
        "a live file that was not adopted is gone: \(names)")
      return
    }
    let (_, second, reopening) = open(disk, boot: boot)
    FuzzCheck.require(reopening == .adopted, "adopted once, then \(reopening)")
    FuzzCheck.require(second == first, "a second open found other series")
    let key = MetricSeriesKey(kind: .counter, name: "fuzz.added", dimensions: [("n", "1")])
    guard !first.contains(where: { $0.key == key }) else { return }
    let cells: [UInt64] = [1, 2, 3, 4]
    do throws(StoreError) {
      _ = try file.allocate(key: key, cells: cells)
    } catch {
      FuzzCheck.fail("allocating a series failed: \(error)")
    }
    let (_, third, last) = open(disk, boot: boot)
    FuzzCheck.require(last == .adopted, "adopted twice, then \(last) after an allocation")
    FuzzCheck.require(
      third == first + [Series(key: key, cells: cells)],
      "after an allocation an open found \(third.count) series, not \(first.count + 1)")
  }
}
