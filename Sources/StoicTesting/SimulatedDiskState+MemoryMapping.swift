import CStoicAtomics
import StoicStore

extension SimulatedDiskState {
  /// A memory mapping's buffer: the running process's memory for `[0, length)` of `inode`,
  /// owned by its ``SimulatedMemoryMapping``.
  struct MemoryRegion: Sendable {
    var inode: Int
    /// The buffer's address as a bit pattern (an address is not `Sendable`).
    var address: UInt
    var length: Int

    var pointer: UnsafeMutableRawPointer? { UnsafeMutableRawPointer(bitPattern: address) }
  }

  /// The unit in which stores through a memory mapping become pending writes: a page.
  static let memoryPageSize = 4096

  /// `posix_fallocate` + `mmap(MAP_SHARED)` handing out memory: extends the file to `length`
  /// with a pending zero-extending truncate if it is shorter, and registers a buffer holding
  /// the file's current bytes (zeros past its end), page-aligned.
  ///
  /// - Returns: The mapping's number and its buffer.
  mutating func mapMemory(_ handle: StoreFileHandle, length: UInt64) throws(StoreError)
    -> (number: Int, buffer: UnsafeMutableRawPointer)
  {
    let file = try reserveForMapping(handle, length: length)
    let size = Int(length)
    let buffer = UnsafeMutableRawPointer.allocate(
      byteCount: size, alignment: SimulatedDiskState.memoryPageSize)
    buffer.initializeMemory(as: UInt8.self, repeating: 0, count: size)
    let current = contents[file.inode] ?? []
    current.withUnsafeBytes { source in
      if let origin = source.baseAddress {
        buffer.copyMemory(from: origin, byteCount: min(source.count, size))
      }
    }
    let number = nextMapping
    nextMapping += 1
    memoryMappings[number] = MemoryRegion(
      inode: file.inode, address: UInt(bitPattern: buffer), length: size)
    return (number, buffer)
  }

  /// What the kernel may do at any time: writes the pages of memory mappings (of `inode`, or
  /// of every file) that differ from the file back, each changed page one pending write
  /// (lost, torn or kept by a crash until the file is synced).
  mutating func captureMemory(inode: Int? = nil) {
    for number in memoryMappings.keys.sorted() {
      guard let region = memoryMappings[number], inode == nil || region.inode == inode,
        let pointer = region.pointer
      else { continue }
      let fileSize = contents[region.inode]?.count ?? 0
      let end = min(region.length, fileSize)
      var page = 0
      while page < end {
        let pageEnd = min(page + SimulatedDiskState.memoryPageSize, end)
        let same = (contents[region.inode] ?? []).withUnsafeBytes { current in
          SimulatedDiskState.matches(pointer, current, from: page, to: pageEnd)
        }
        if !same {
          let stored = SimulatedDiskState.load(pointer, from: page, to: pageEnd)
          appendPending(.write(offset: page, bytes: stored), to: region.inode)
          recordOperation()
        }
        page = pageEnd
      }
    }
  }

  /// Whether bytes `[start, end)` of the buffer equal those of `current` (which holds them).
  static func matches(
    _ pointer: UnsafeMutableRawPointer, _ current: UnsafeRawBufferPointer, from start: Int,
    to end: Int
  ) -> Bool {
    var offset = start
    while offset < end {
      if offset % 8 == 0 && end - offset >= 8 {
        let word = stoic_atomic_load(pointer + offset)
        guard word == current.loadUnaligned(fromByteOffset: offset, as: UInt64.self) else {
          return false
        }
        offset += 8
      } else {
        guard pointer.load(fromByteOffset: offset, as: UInt8.self) == current[offset] else {
          return false
        }
        offset += 1
      }
    }
    return true
  }

  /// The bytes `[start, end)` of a buffer that other threads may be storing into, read as
  /// atomic 8-byte words where aligned.
  static func load(_ pointer: UnsafeMutableRawPointer, from start: Int, to end: Int) -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(end - start)
    var offset = start
    while offset < end {
      if offset % 8 == 0 && end - offset >= 8 {
        let word = stoic_atomic_load(pointer + offset)
        for shift in stride(from: 0, to: 64, by: 8) {
          bytes.append(UInt8(truncatingIfNeeded: UInt64(littleEndian: word) >> UInt64(shift)))
        }
        offset += 8
      } else {
        bytes.append(pointer.load(fromByteOffset: offset, as: UInt8.self))
        offset += 1
      }
    }
    return bytes
  }

  /// A positional write into a file that is memory-mapped reaches the mappings' buffers too
  /// (the page cache is one).
  func storeIntoMemory(inode: Int, _ bytes: [UInt8], at offset: Int) {
    for region in memoryMappings.values where region.inode == inode {
      guard let pointer = region.pointer, offset < region.length else { continue }
      let count = min(bytes.count, region.length - offset)
      bytes.withUnsafeBytes { source in
        if let origin = source.baseAddress {
          (pointer + offset).copyMemory(from: origin, byteCount: count)
        }
      }
    }
  }

  /// `munmap` of a memory mapping: its changed pages become pending writes, then it is
  /// forgotten. The buffer stays with its owner.
  mutating func unmapMemory(_ number: Int) {
    guard let region = memoryMappings[number] else { return }
    captureMemory(inode: region.inode)
    memoryMappings[number] = nil
    collectGarbage()
  }
}
