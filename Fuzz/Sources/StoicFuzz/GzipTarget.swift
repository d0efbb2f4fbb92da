import StoicForwarding

/// gzip inflate (`Gzip.decompress`), as the collector runs it on `Content-Encoding: gzip`
/// bodies: a stream that inflates compresses again to one that inflates to the same bytes,
/// and the output limit is exact (the same stream passes with a limit of its output's size and
/// is refused as too large with one byte less).
enum GzipTarget {
  static let limit = 1 << 20

  static let target = FuzzTarget(
    name: "gzip",
    summary: "gzip inflate: output limit exact, inflated bytes deflate and inflate the same",
    maxLength: 4096,
    run: { bytes in
      guard let output = try? Gzip.decompress(bytes, maxOutputSize: limit) else { return }
      let exact = try? Gzip.decompress(bytes, maxOutputSize: output.count)
      FuzzCheck.require(exact == output, "a limit of the output's own size refused it")
      if !output.isEmpty {
        do throws(ForwardingError) {
          _ = try Gzip.decompress(bytes, maxOutputSize: output.count - 1)
          FuzzCheck.fail("\(output.count) bytes passed a limit of \(output.count - 1)")
        } catch {
          FuzzCheck.require(error.code == .tooLarge, "past the limit: \(error.code), not tooLarge")
        }
      }
      guard let compressed = try? Gzip.compress(output),
        let again = try? Gzip.decompress(compressed, maxOutputSize: limit)
      else {
        FuzzCheck.fail("inflated bytes do not deflate and inflate again")
      }
      FuzzCheck.require(again == output, "inflated bytes changed through deflate and inflate")
    },
    seeds: {
      let text = Array(String(repeating: "stoic telemetry ", count: 40).utf8)
      let members = [text, [], Array(0...255)].compactMap { try? Gzip.compress($0, level: 6) }
      var flipped = members[0]
      flipped[flipped.count / 2] ^= 0x01
      return members + [members[0] + members[2], flipped, Array(members[0].dropLast(4))]
    })
}
