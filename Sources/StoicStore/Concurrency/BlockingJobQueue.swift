#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A first-in, first-out queue of blocking jobs and the one thread that drains it: the
/// package's one mechanism for work off the caller's thread (see `Concurrency.md`). A
/// ``BlockingExecutor`` runs on one; each ``Journal`` has one for its seals, compressions and
/// timed flushes; ``decodeAhead`` serves the compressed readers.
///
/// Other modules of the package (the log spool, the metrics flush timer, the socket transport)
/// use it through `package` access, or ``BlockingExecutor`` for actors and async callers.
///
/// The thread holds this queue (its own reference, taken when it starts), never its owner, so
/// releasing the owner is what tells the thread to finish (``finish()``): it runs what is left
/// and exits. It is started by ``start()``, or by the first job pushed.
package final class BlockingJobQueue: @unchecked Sendable {
  private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
  private let ready = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
  /// Guarded by `mutex`.
  private var jobs: [() -> Void] = []
  /// Guarded by `mutex`: the jobs before this index have been taken.
  private var head = 0
  /// Guarded by `mutex`: jobs that run once the monotonic clock reaches their deadline (in
  /// nanoseconds), in the order they were pushed.
  private var delayed: [(deadline: UInt64, job: () -> Void)] = []
  /// Guarded by `mutex`.
  private var finishing = false
  /// Guarded by `mutex`: the thread was asked for (it may not run yet).
  private var started = false
  /// Guarded by `mutex`: the thread waits with nothing to run.
  private var idle = false
  /// Guarded by `mutex`: no thread could be started, so jobs run on the thread that pushes
  /// them.
  private var runsInline = false
  /// Guarded by `mutex`.
  private var thread = pthread_t?.none

  /// The queue the compressed readers decode their next block on while they decode the
  /// current one (``pushIfIdle(_:)``: never waited for behind other work).
  static let decodeAhead = BlockingJobQueue()

  /// A queue whose thread starts with ``start()`` or the first job.
  package init() {
    mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(mutex, nil)
    ready.initialize(to: pthread_cond_t())
    #if canImport(Glibc)
      var attributes = pthread_condattr_t()
      pthread_condattr_init(&attributes)
      pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
      pthread_cond_init(ready, &attributes)
      pthread_condattr_destroy(&attributes)
    #else
      pthread_cond_init(ready, nil)
    #endif
  }

  deinit {
    pthread_cond_destroy(ready)
    ready.deallocate()
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
  }

  /// Starts the draining thread, detached (it ends by itself after ``finish()``), unless it was
  /// started already.
  package func start() {
    pthread_mutex_lock(mutex)
    let needed = !started
    started = true
    pthread_mutex_unlock(mutex)
    guard needed else { return }
    let context = Unmanaged.passRetained(self)
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    defer { pthread_attr_destroy(&attributes) }
    pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
    #if canImport(Glibc)
      var created = pthread_t()
    #else
      var created: pthread_t?
    #endif
    let status = pthread_create(
      &created, &attributes,
      { raw in
        guard let raw else { return nil }
        Unmanaged<BlockingJobQueue>.fromOpaque(raw).takeRetainedValue().drain()
        return nil
      }, context.toOpaque())
    if status != 0 {
      // No thread could be made (the process is out of threads or memory): jobs then run on
      // the thread that enqueues them, which blocks that thread but never loses a job.
      context.release()
      pthread_mutex_lock(mutex)
      runsInline = true
      let pending = Array(jobs[head...]) + delayed.map(\.job)
      jobs.removeAll()
      head = 0
      delayed.removeAll()
      pthread_mutex_unlock(mutex)
      for job in pending { job() }
    }
  }

  /// Adds a job; it runs after every job added before it.
  package func push(_ job: @escaping () -> Void) {
    pthread_mutex_lock(mutex)
    if runsInline {
      pthread_mutex_unlock(mutex)
      job()
      return
    }
    jobs.append(job)
    let needsStart = !started
    pthread_cond_signal(ready)
    pthread_mutex_unlock(mutex)
    if needsStart { start() }
  }

  /// Adds a job that runs once `delay` has passed (on the monotonic clock), after the jobs due
  /// before it; at ``finish()`` it runs at once.
  package func push(after delay: Duration, _ job: @escaping () -> Void) {
    let (deadline, overflow) = Self.now().addingReportingOverflow(delay.clampedNanoseconds)
    pthread_mutex_lock(mutex)
    if runsInline {
      pthread_mutex_unlock(mutex)
      job()
      return
    }
    delayed.append((overflow ? UInt64.max : deadline, job))
    let needsStart = !started
    pthread_cond_signal(ready)
    pthread_mutex_unlock(mutex)
    if needsStart { start() }
  }

  /// Adds `job` only if it would start at once: the thread waits with nothing else to run (or
  /// is not started yet). Returns whether it was added; a caller that waits for the job never
  /// waits behind other work, so it may even be a job of this queue.
  package func pushIfIdle(_ job: @escaping () -> Void) -> Bool {
    pthread_mutex_lock(mutex)
    guard !runsInline, !finishing, head == jobs.count, idle || !started else {
      pthread_mutex_unlock(mutex)
      return false
    }
    jobs.append(job)
    idle = false
    let needsStart = !started
    pthread_cond_signal(ready)
    pthread_mutex_unlock(mutex)
    if needsStart { start() }
    return true
  }

  /// Tells the thread to exit once the queue is empty (delayed jobs then run at once).
  package func finish() {
    pthread_mutex_lock(mutex)
    finishing = true
    pthread_cond_signal(ready)
    pthread_mutex_unlock(mutex)
  }

  /// Whether the caller runs on the draining thread.
  package var isCurrentThread: Bool {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    guard let thread else { return false }
    return pthread_equal(thread, pthread_self()) != 0
  }

  /// The monotonic clock, in nanoseconds.
  private static func now() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(clamping: time.tv_sec) &* 1_000_000_000 &+ UInt64(clamping: time.tv_nsec)
  }

  /// Waits on `ready` (with `mutex` held) until `deadline` at the latest.
  private func wait(until deadline: UInt64) {
    #if canImport(Glibc)
      var time = timespec(
        tv_sec: Int(clamping: deadline / 1_000_000_000),
        tv_nsec: Int(deadline % 1_000_000_000))
      _ = pthread_cond_timedwait(ready, mutex, &time)
    #else
      let now = Self.now()
      let left = deadline > now ? deadline - now : 0
      var time = timespec(
        tv_sec: Int(clamping: left / 1_000_000_000), tv_nsec: Int(left % 1_000_000_000))
      _ = pthread_cond_timedwait_relative_np(ready, mutex, &time)
    #endif
  }

  /// Moves the delayed jobs that are due (all of them when finishing) to the queue, in the
  /// order they were pushed; returns the earliest deadline left, if any. `mutex` is held.
  private func takeDueDelayed() -> UInt64? {
    guard !delayed.isEmpty else { return nil }
    let now = Self.now()
    var earliest: UInt64?
    var left: [(deadline: UInt64, job: () -> Void)] = []
    for entry in delayed {
      if finishing || entry.deadline <= now {
        jobs.append(entry.job)
      } else {
        left.append(entry)
        earliest = min(earliest ?? entry.deadline, entry.deadline)
      }
    }
    delayed = left
    return earliest
  }

  /// The draining thread's loop: takes jobs in order, runs each outside the lock, and returns
  /// once finishing was asked and nothing is left.
  private func drain() {
    pthread_mutex_lock(mutex)
    thread = pthread_self()
    while true {
      let nextDeadline = takeDueDelayed()
      if head < jobs.count {
        let job = jobs[head]
        head += 1
        if head == jobs.count {
          jobs.removeAll(keepingCapacity: true)
          head = 0
        }
        pthread_mutex_unlock(mutex)
        job()
        pthread_mutex_lock(mutex)
        continue
      }
      if finishing {
        thread = nil
        pthread_mutex_unlock(mutex)
        return
      }
      idle = true
      if let nextDeadline {
        wait(until: nextDeadline)
      } else {
        pthread_cond_wait(ready, mutex)
      }
      idle = false
    }
  }
}
