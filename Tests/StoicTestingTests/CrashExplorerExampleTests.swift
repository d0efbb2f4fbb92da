import StoicStore
import StoicTesting
import Testing

/// Saves `text` at `path` so that a crash leaves the old text or the new, never a mix.
func save(_ text: String, to path: String, on disk: some FileSystem) throws(StoreError) {
  let temporary = path + ".tmp"
  let handle = try disk.open(temporary, .createOrOpen)
  defer { try? disk.close(handle) }
  try disk.truncate(handle, to: 0)
  try disk.write(handle, Array(text.utf8), at: 0)
  try disk.sync(handle)
  try disk.rename(temporary, to: path)
  try disk.syncDirectory(StorePath.directory(of: path))
}

@Test func saveSurvivesEveryCrash() {
  let report = CrashExplorer().explore(
    setup: { disk in try save("old", to: "settings.txt", on: disk) },
    operation: { disk, recorder in
      try save("new", to: "settings.txt", on: disk)
      recorder.acknowledge("new")
    },
    recover: { disk in
      try disk.readWholeFile("settings.txt").map { String(decoding: $0, as: UTF8.self) }
    },
    check: { value, context in
      let allowed = context.acknowledged.isEmpty ? ["old", "new"] : ["new"]
      try context.require(
        value.map(allowed.contains) ?? false, "found \(String(describing: value))")
    })
  #expect(report.passed, "\(report)")
}

/// The example's explorer really explores: every crash point of `save`, and it catches a
/// `save` that skips the directory sync.
@Test func saveExampleExploresEveryCrashPoint() {
  let report = CrashExplorer(budget: CrashBudget(imagesPerCrashPoint: 64)).explore(
    setup: { disk in try save("old", to: "settings.txt", on: disk) },
    operation: { disk, recorder in
      try save("new", to: "settings.txt", on: disk)
      recorder.acknowledge("new")
    },
    recover: { disk in try TestDisk.text(disk.readWholeFile("settings.txt")) },
    check: { value, context in
      try context.require(context.acknowledged.isEmpty || value == "new", "lost the save")
    })
  #expect(report.passed, "\(report)")
  // open (create), truncate, write, sync, rename, syncDirectory: 6 operations, 7 points.
  #expect(report.crashPoints == 7)
  #expect(report.imagesChecked > report.crashPoints)
}
