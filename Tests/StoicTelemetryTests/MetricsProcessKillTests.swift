import Foundation
import StoicStore
import StoicTesting
import Testing

@testable import StoicTelemetry

/// A real child process (`stoic-metrics-child`) counts into a metrics spool on the real disk
/// and is killed with SIGKILL at random moments, again and again on the same spool: after each
/// kill the reopened spool holds every increment and histogram recording whose call had
/// returned, and at most the one in flight.
@Suite("MetricsSpool survives SIGKILL of a real process")
struct MetricsProcessKillTests {
  typealias Support = MetricsTestSupport

  /// Kills per run: `STOIC_KILL_BUDGET`, else 50.
  static var kills: Int {
    ProcessInfo.processInfo.environment["STOIC_KILL_BUDGET"].flatMap(Int.init).map { max($0, 1) }
      ?? 50
  }

  /// The child executable next to the test bundle in the build directory.
  static var executable: URL {
    let testBinary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    var directory = testBinary.deletingLastPathComponent()
    let name = "stoic-metrics-child"
    while !FileManager.default.fileExists(atPath: directory.appendingPathComponent(name).path),
      directory.path != "/"
    {
      directory = directory.deletingLastPathComponent()
    }
    return directory.appendingPathComponent(name)
  }

  /// What one child run acknowledged: its `C` and `H` bytes, and the last byte.
  struct Acknowledged {
    var counter = 0
    var histogram = 0
    var last: UInt8?

    init(_ bytes: [UInt8]) {
      counter = bytes.count { $0 == UInt8(ascii: "C") }
      histogram = bytes.count { $0 == UInt8(ascii: "H") }
      last = bytes.last
    }

    /// Whether a counter increment may have been in flight at the kill (it alternates with
    /// recordings, counter first).
    var counterInFlight: Int { last == UInt8(ascii: "C") ? 0 : 1 }
    /// Whether a histogram recording may have been in flight.
    var histogramInFlight: Int { last == UInt8(ascii: "C") ? 1 : 0 }
  }

  /// Starts the child, lets it run a random while (one time in five killing it during start or
  /// open, otherwise after its first acknowledged increment), kills it, and returns what it
  /// acknowledged.
  static func runAndKill(_ directory: String, seed: inout SplitMix64) throws -> Acknowledged {
    let acks = directory + "/acks"
    try? FileManager.default.removeItem(atPath: acks)
    let child = Process()
    child.executableURL = executable
    child.arguments = [directory + "/metrics", acks]
    child.standardOutput = FileHandle.nullDevice
    child.standardError = FileHandle.nullDevice
    try child.run()
    if seed.next() % 5 == 0 {
      // One kill in five 2 to 50 ms after start, most likely while it starts or opens.
      usleep(UInt32(2000 + seed.next() % 48_000))
    } else {
      // The others once the child has acknowledged its first increment (however slow the
      // machine is to start it), then 0 to 30 ms into its counting.
      let deadline = ContinuousClock.now + .seconds(60)
      var info = stat()
      while child.isRunning, ContinuousClock.now < deadline,
        stat(acks, &info) != 0 || info.st_size == 0
      {
        usleep(1000)
      }
      usleep(UInt32(seed.next() % 30_000))
    }
    let wasRunning = child.isRunning
    kill(child.processIdentifier, SIGKILL)
    child.waitUntilExit()
    #expect(wasRunning, "the child stopped by itself with status \(child.terminationStatus)")
    #expect(child.terminationReason == .uncaughtSignal)
    return Acknowledged([UInt8](FileManager.default.contents(atPath: acks) ?? Data()))
  }

  @Test("every acknowledged increment and recording survives each of many kills")
  func killedRepeatedly() throws {
    try Support.withScratch { directory in
      var seed = SplitMix64(seed: 0x5EED)
      var counter: Int64 = 0
      var count: UInt64 = 0
      var sumsAhead: Double = 0
      var exactCounters = 0
      var duringOpen = 0
      var total = Acknowledged([])
      let options = MetricsOptions(
        flushInterval: nil, liveFileSize: 32 << 10,
        journal: JournalOptions(syncPolicy: .never, segmentSize: 64 << 10))
      for _ in 0..<Self.kills {
        let acknowledged = try Self.runAndKill(directory, seed: &seed)
        total.counter += acknowledged.counter
        total.histogram += acknowledged.histogram
        let spool = try MetricsSpool.open(directory: directory + "/metrics", options: options)
        let sampledCounter = Support.current(
          spool, "kill.counter", [MetricDimension("process", "child")])
        var value: Int64 = counter
        if case .integer(let number) = sampledCounter?.value { value = number }
        var histogram = MetricHistogram(
          bounds: [5, 10, 20], bucketCounts: [0, 0, 0, 0], sum: 0, min: nil, max: nil)
        if case .histogram(let stored) = Support.current(spool, "kill.histogram")?.value {
          histogram = stored
        }
        let lowCounter = counter + Int64(acknowledged.counter)
        let lowCount = count + UInt64(acknowledged.histogram)
        #expect(value >= lowCounter && value <= lowCounter + Int64(acknowledged.counterInFlight))
        #expect(
          histogram.count >= lowCount
            && histogram.count <= lowCount + UInt64(acknowledged.histogramInFlight))
        // Every value was 7: the second bucket. A recording killed after adding its sum and
        // before its bucket leaves its sum behind, so the sum may be ahead of the buckets by
        // such recordings: at most one more with each kill that had one in flight, and never
        // fewer than after the kill before.
        #expect(
          histogram.bucketCounts[0] == 0 && histogram.bucketCounts[2...].allSatisfy { $0 == 0 })
        let ahead = histogram.sum / 7 - Double(histogram.count)
        #expect(
          ahead == ahead.rounded() && ahead >= sumsAhead
            && ahead <= sumsAhead + Double(acknowledged.histogramInFlight),
          "sum \(histogram.sum), count \(histogram.count), recordings ahead before \(sumsAhead)")
        sumsAhead = ahead
        if acknowledged.counter == 0 { duringOpen += 1 }
        if acknowledged.counterInFlight == 0 { exactCounters += 1 }
        if acknowledged.counterInFlight == 0 { #expect(value == lowCounter) }
        if acknowledged.histogramInFlight == 0 { #expect(histogram.count == lowCount) }
        counter = value
        count = histogram.count
        try spool.close()
      }
      // The children did work, and kills landed in the middle of it.
      #expect(total.counter > Self.kills * 10)
      print(
        "metrics SIGKILL: \(Self.kills) kills (\(duringOpen) before the first increment, "
          + "\(exactCounters) with no increment in flight), \(total.counter) increments and "
          + "\(total.histogram) recordings acknowledged, counter \(counter), "
          + "\(Int(sumsAhead)) killed recordings with their sum in and their bucket not")
    }
  }
}
