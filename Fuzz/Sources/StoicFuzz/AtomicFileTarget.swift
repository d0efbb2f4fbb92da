import StoicTesting

@testable import StoicStore

/// The `STAF` envelope, alone and as ``AtomicFile/read(validate:)`` meets it on a disk.
enum AtomicFileTarget {
  /// Any bytes the envelope accepts are exactly the envelope of the payload it returns (there
  /// is one encoding per payload), and that envelope opens to the same payload.
  static let envelope = FuzzTarget(
    name: "atomicfile-envelope",
    summary: "STAF envelope: what opens is the one encoding of its payload",
    maxLength: 4096,
    run: { bytes in
      guard let payload = try? AtomicFile.openEnvelope(bytes) else { return }
      let encoded = AtomicFile.envelope(payload)
      FuzzCheck.require(
        encoded == bytes, "accepted \(bytes.count) bytes that re-encode differently")
      FuzzCheck.require(
        (try? AtomicFile.openEnvelope(encoded)) == payload, "its own envelope does not open")
    },
    seeds: {
      // Three valid envelopes first (`scripts/fuzz --prove` starts from these alone), then a
      // bit-flipped and a torn one.
      let payloads: [[UInt8]] = [
        [], Array("{\"theme\":\"dark\"}".utf8), Array(repeating: 0xA5, count: 300),
      ]
      var seeds = payloads.map(AtomicFile.envelope)
      var flipped = seeds[1]
      flipped[flipped.count - 2] ^= 0x08
      seeds.append(flipped)
      seeds.append(Array(seeds[2].prefix(150)))
      return seeds
    })

  static let path = "/fuzz/settings.json"

  /// A current file, a previous generation and a stale temporary, read through AtomicFile with
  /// the envelope on or off and a validate closure: nothing is deleted (every file's bytes are
  /// still in the directory, quarantined or not), what a read returns is what the file it
  /// names holds, a second read agrees with the first, and a write then reads back.
  static let directory = FuzzTarget(
    name: "atomicfile-read",
    summary: "AtomicFile.read over damaged generations: nothing lost, reads agree",
    maxLength: 4096,
    run: { bytes in
      var input = FuzzInput(bytes)
      let flags = input.byte()
      let options = AtomicFile.Options(envelope: flags & 1 == 0, keepPrevious: flags & 2 == 0)
      let disk = SimulatedFileSystem()
      try? disk.createDirectory(StorePath.directory(of: path))
      var planted: [[UInt8]] = []
      for suffix in ["", ".previous", ".tmp"] where input.bool() {
        let contents = input.bytes(upTo: 1024)
        disk.setDurableContents(path + suffix, contents)
        planted.append(contents)
      }
      // Payloads that start with 0xFF fail validation (so the closure's path is fuzzed too).
      let validate: ([UInt8]) -> Bool = { $0.first != 0xFF }
      let file = AtomicFile(path: path, fileSystem: disk, options: options)
      let first = Result { () throws(StoreError) in try file.read(validate: validate) }
      let kept = disk.allPaths().compactMap { disk.contents($0) }
      for contents in planted {
        FuzzCheck.require(kept.contains(contents), "a read lost a file of \(contents.count) bytes")
      }
      if case .success(let result?) = first {
        let source = result.source == .current ? path : file.previousPath
        let stored = disk.contents(source) ?? []
        let expected = options.envelope ? try? AtomicFile.openEnvelope(stored) : stored
        FuzzCheck.require(expected == result.bytes, "read returned bytes its file does not hold")
        FuzzCheck.require(validate(result.bytes), "read returned bytes that fail validation")
      }
      let second = Result { () throws(StoreError) in try file.read(validate: validate) }
      switch (first, second) {
      case (.success(let one), .success(let two)):
        FuzzCheck.require(one?.bytes == two?.bytes, "a second read returned other bytes")
      case (.failure(let error), .success(let two)):
        FuzzCheck.require(
          error.code == .corrupt && two == nil,
          "after \(error), a read found \(String(describing: two))")
      default:
        FuzzCheck.fail("a read failed after one that did not: \(first), \(second)")
      }
      let written = Array("written".utf8)
      do throws(StoreError) {
        try file.write(written, validate: validate)
        FuzzCheck.require(
          try file.read(validate: validate)?.bytes == written, "a write did not read back")
      } catch {
        FuzzCheck.fail("a write over what a read left failed: \(error)")
      }
    },
    seeds: {
      let current = AtomicFile.envelope(Array("{\"a\":2}".utf8))
      let previous = AtomicFile.envelope(Array("{\"a\":1}".utf8))
      var flipped = current
      flipped[flipped.count - 1] ^= 1
      func seed(_ flags: UInt8, _ files: [[UInt8]?]) -> [UInt8] {
        var bytes = [flags]
        for file in files {
          bytes.append(file == nil ? 0 : 1)
          guard let file else { continue }
          bytes += [255, UInt8(file.count & 0xFF), UInt8(file.count >> 8)] + file
        }
        return bytes
      }
      return [
        seed(0, [current, previous, nil]), seed(0, [flipped, previous, current]),
        seed(0, [Array(current.prefix(12)), nil, nil]), seed(1, [Array("plain".utf8), nil, nil]),
      ]
    })
}
