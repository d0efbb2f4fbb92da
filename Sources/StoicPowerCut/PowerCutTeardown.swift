/// Undo steps registered as a setup goes, run in reverse on every path: after success, after
/// a failure part-way, and whatever an undo step itself throws (every step still runs).
package final class PowerCutTeardown {
  private var steps: [(what: String, undo: () throws(PowerCutError) -> Void)] = []

  /// An empty teardown.
  package init() {}

  /// Registers `undo`, to run before every step registered earlier.
  package func add(_ what: String, _ undo: @escaping () throws(PowerCutError) -> Void) {
    steps.append((what, undo))
  }

  /// Runs every step, last registered first, and forgets them.
  ///
  /// - Throws: ``PowerCutError`` naming each step that failed (after all of them ran).
  package func run() throws(PowerCutError) {
    var failures: [String] = []
    while let step = steps.popLast() {
      do throws(PowerCutError) { try step.undo() } catch {
        failures.append("\(step.what): \(error)")
      }
    }
    guard failures.isEmpty else {
      throw PowerCutError("cleanup failed: " + failures.joined(separator: "; "))
    }
  }

  /// Runs `body`, then the teardown, whether `body` threw or not. An error from `body` wins;
  /// a teardown failure after it is added to its message.
  package func around<Result>(_ body: () throws(PowerCutError) -> Result) throws(PowerCutError)
    -> Result
  {
    let result: Result
    do throws(PowerCutError) {
      result = try body()
    } catch {
      do throws(PowerCutError) { try run() } catch let cleanup {
        throw PowerCutError("\(error); then \(cleanup)")
      }
      throw error
    }
    try run()
    return result
  }
}
