import StoicStore
import StoicTelemetry

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Opens a spool's log journal the way `query` and `tail` read it: through the library's own
/// open over a fresh ``OverlayFileSystem``, so the lock is not taken (the process that owns
/// the spool keeps it) and nothing on the disk changes (a torn tail is cut in memory only).
enum SpoolReader {
  /// A journal opened for reading, and what the tool should say about how.
  struct Opened {
    /// The journal, over its own overlay.
    var journal: Journal
    /// A line for standard error when the journal was damaged and read by a salvage.
    var warning: String?
  }

  /// How many times damage found in a journal another process writes is looked at again
  /// before it is believed (a frame half written as it was read).
  static let liveRetries = 4

  /// Opens the log journal in `directory`.
  ///
  /// Damage the library refuses is looked at again a few times (a live writer may have been
  /// in the middle of a frame), then read past with the library's salvage, in memory, with a
  /// warning.
  ///
  /// - Throws: ``CommandFailure``: ``ExitStatus/unreadable`` for a journal that cannot be
  ///   read at all.
  static func open(_ directory: String, maxRecordSize: Int) throws(CommandFailure) -> Opened {
    var options = LogQuery.readingOptions(maxRecordSize: maxRecordSize)
    var looks = 0
    while true {
      do throws(StoreError) {
        let journal = try Journal.open(
          directory: directory, fileSystem: OverlayFileSystem(), options: options)
        let warning =
          options.salvage
          ? "\(directory): damaged; reading what the library's salvage keeps "
            + "(stoic verify names the damage)" : nil
        return Opened(journal: journal, warning: warning)
      } catch  where error.code == .corrupt && !options.salvage {
        looks += 1
        if looks >= liveRetries {
          options.salvage = true
        } else {
          usleep(50_000)
        }
      } catch {
        throw CommandFailure(.unreadable, "\(directory): \(error.message)")
      }
    }
  }
}
