/// Something a power cut interrupts: it runs a store's operations on a directory of the mount
/// and, after each call returns, appends to an acknowledgement file what the library now
/// claims durable; after the cut it opens the store on the copy (the library's recovery) and
/// checks every claim.
///
/// A new workload is one type conforming to this and one line in ``PowerCutWorkloads/all``.
package protocol PowerCutWorkload: Sendable {
  /// Its name on the command line and in reports (`journal-always`, `outbox`, …).
  var name: String { get }
  /// What it does, for the log.
  var summary: String { get }
  /// Whether it is a control: code that claims more than it made durable, which must show
  /// losses, or the method is broken.
  var isControl: Bool { get }

  /// Runs the workload in `directory` (which does not exist yet), recording claims with
  /// `acknowledgements`, until its volume is spent or the process is killed. `seed` varies
  /// its pace and choices.
  func run(
    directory: String, acknowledgements: PowerCutAcknowledgementWriter, seed: UInt64
  ) async throws

  /// Opens what a cut left in `directory` and checks it against `acknowledgements`: every
  /// claim holds, everything found is intact and in order, nothing is a mix, and the store
  /// accepts a write.
  func verify(directory: String, acknowledgements: PowerCutAcknowledgements) async
    -> PowerCutVerdict
}
