/// The physical floor: the same records written with bare system calls.
enum FloorPeer {
  /// A bare `pwrite` per record (process-crash safe, like the journal without a sync).
  static func pwrite(_ workload: Workload, in directory: String, latencies: Bool = false) throws
    -> RunSample
  {
    let file = try RawFile.create(directory + "/pwrite.dat")
    defer { file.close() }
    var offset = 0
    return try RunSample.timing(count: workload.count, latencies: latencies) { index in
      let payload = workload.payload(index)
      try file.pwrite(payload, at: offset)
      offset += payload.count
    }
  }

  /// A `pwrite` per record and an `fdatasync` after every `k` records (and after the last).
  static func pwriteFdatasync(_ workload: Workload, every k: Int, in directory: String) throws
    -> RunSample
  {
    let file = try RawFile.create(directory + "/pwrite-fdatasync.dat")
    defer { file.close() }
    var offset = 0
    return try RunSample.timing(count: workload.count, latencies: false) { index in
      let payload = workload.payload(index)
      try file.pwrite(payload, at: offset)
      offset += payload.count
      if (index + 1) % k == 0 || index + 1 == workload.count { try file.fdatasync() }
    }
  }

  /// `k` records gathered into one buffer, written with one `pwrite`, then one `fdatasync`:
  /// the device's limit for durable throughput at that cadence.
  static func bufferedFdatasync(_ workload: Workload, every k: Int, in directory: String) throws
    -> RunSample
  {
    let file = try RawFile.create(directory + "/buffered-fdatasync.dat")
    defer { file.close() }
    var offset = 0
    var buffer: [UInt8] = []
    return try RunSample.timing(count: workload.count, latencies: false) { index in
      buffer.append(contentsOf: workload.payload(index))
      if (index + 1) % k == 0 || index + 1 == workload.count {
        try file.pwrite(buffer, at: offset)
        try file.fdatasync()
        offset += buffer.count
        buffer.removeAll(keepingCapacity: true)
      }
    }
  }

  /// A `write` and an `fsync` per record.
  static func writeFsync(_ workload: Workload, in directory: String) throws -> RunSample {
    let file = try RawFile.create(directory + "/write-fsync.dat", append: true)
    defer { file.close() }
    return try RunSample.timing(count: workload.count, latencies: false) { index in
      try file.write(workload.payload(index))
      try file.fsync()
    }
  }
}

extension FloorPeer {
  /// Each record framed like the journal's (16-byte header, CRC32C) and copied into a
  /// `MAP_SHARED` mapping of a preallocated file: process-crash safe with no system call per
  /// record (see ``MappedAppender``).
  static func mmapShared(_ workload: Workload, in directory: String, latencies: Bool = false)
    throws -> RunSample
  {
    var appender = try MappedAppender(path: directory + "/mmap-shared.dat")
    let faultsBefore = MinorFaults.now()
    var sample = try RunSample.timing(count: workload.count, latencies: latencies) { index in
      try appender.append(workload.payload(index))
    }
    sample.minorFaults = MinorFaults.now() - faultsBefore
    sample.mappedWindows = appender.remaps
    return sample
  }

  /// The same as ``mmapShared(_:in:latencies:)`` plus `msync(MS_SYNC)` of the new pages after
  /// every `k` records (and after the last): power-loss safe at that cadence.
  static func mmapMsync(_ workload: Workload, every k: Int, in directory: String) throws
    -> RunSample
  {
    var appender = try MappedAppender(path: directory + "/mmap-msync.dat", syncs: true)
    var sample = try RunSample.timing(count: workload.count, latencies: false) { index in
      try appender.append(workload.payload(index))
      if (index + 1) % k == 0 || index + 1 == workload.count { try appender.sync() }
    }
    sample.mappedWindows = appender.remaps
    return sample
  }
}
