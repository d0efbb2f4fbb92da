/// An image attached to a loop device (`losetup`), and mounted (`mount`).
///
/// A loop device has no volatile write cache: what the file system has written to it is in
/// the image file (in the host's page cache until the host writes it back), so a copy of the
/// image is exactly what the device holds, as if its power were cut at that moment.
package struct PowerCutLoopDevice: Sendable {
  /// `/dev/loopN`.
  package let device: String

  /// Attaches `image` to the first free loop device.
  package static func attach(_ image: String) throws(PowerCutError) -> PowerCutLoopDevice {
    let device = try PowerCutHost.run("losetup", ["--find", "--show", image])
      .trimmingCharacters(in: .whitespacesAndNewlines)
    guard device.hasPrefix("/dev/loop") else {
      throw PowerCutError("losetup attached \(image) to an unexpected device '\(device)'")
    }
    return PowerCutLoopDevice(device: device)
  }

  /// Detaches the device.
  package func detach() throws(PowerCutError) {
    try PowerCutHost.run("losetup", ["-d", device])
  }

  /// Mounts the device's file system at `mountPoint` (created if missing) with `options`.
  package func mount(
    _ fileSystem: PowerCutFileSystem, at mountPoint: String, options: String?
  ) throws(PowerCutError) {
    try PowerCutHost.makeDirectory(mountPoint)
    var arguments = ["-t", fileSystem.rawValue]
    if let options { arguments += ["-o", options] }
    try PowerCutHost.run("mount", arguments + [device, mountPoint])
  }

  /// Unmounts whatever is mounted at `mountPoint`.
  package static func unmount(_ mountPoint: String) throws(PowerCutError) {
    try PowerCutHost.run("umount", [mountPoint])
  }

  /// The requests the device has in flight (reads and writes), from
  /// `/sys/block/loopN/inflight`; nil when it cannot be read.
  package var requestsInFlight: Int? {
    let name = device.split(separator: "/").last.map(String.init) ?? device
    guard let text = PowerCutHost.readText("/sys/block/\(name)/inflight") else { return nil }
    let counts = text.split(whereSeparator: { $0 == " " || $0 == "\n" }).compactMap { Int($0) }
    return counts.count == 2 ? counts[0] + counts[1] : nil
  }

  /// Waits until the device has had no request in flight for three looks in a row, 2 ms
  /// apart: the kernel finished what it had started writing before the image is copied.
  ///
  /// - Throws: ``PowerCutError`` after `timeoutMilliseconds`.
  package func waitUntilIdle(timeoutMilliseconds: Int = 10_000) throws(PowerCutError) {
    var quiet = 0
    var waited = 0
    while quiet < 3 {
      guard waited < timeoutMilliseconds else {
        throw PowerCutError("\(device) still had requests in flight after \(waited) ms")
      }
      quiet = requestsInFlight == 0 ? quiet + 1 : 0
      PowerCutHost.sleep(milliseconds: 2)
      waited += 2
    }
  }
}
