#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The first-in, first-out queue of a ``BlockingExecutor`` and the thread that drains it.
///
/// The thread holds this queue (its own reference, taken when it starts), never the executor, so
/// releasing the executor is what tells the thread to finish (``finish()``): it runs what is left
/// and exits.
final class BlockingJobQueue: @unchecked Sendable {
  private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
  private let ready = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
  /// Guarded by `mutex`.
  private var jobs: [() -> Void] = []
  /// Guarded by `mutex`: the jobs before this index have been taken.
  private var head = 0
  /// Guarded by `mutex`.
  private var finishing = false
  /// No thread could be started: jobs run on the thread that pushes them.
  private var runsInline = false
  private var thread = pthread_t?.none

  init() {
    mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(mutex, nil)
    ready.initialize(to: pthread_cond_t())
    pthread_cond_init(ready, nil)
  }

  deinit {
    pthread_cond_destroy(ready)
    ready.deallocate()
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
  }

  /// Starts the draining thread, detached: it ends by itself after ``finish()``.
  func start() {
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
      pthread_mutex_unlock(mutex)
    }
  }

  /// Adds a job; it runs after every job added before it.
  func push(_ job: @escaping () -> Void) {
    pthread_mutex_lock(mutex)
    if runsInline {
      pthread_mutex_unlock(mutex)
      job()
      return
    }
    jobs.append(job)
    pthread_cond_signal(ready)
    pthread_mutex_unlock(mutex)
  }

  /// Tells the thread to exit once the queue is empty.
  func finish() {
    pthread_mutex_lock(mutex)
    finishing = true
    pthread_cond_signal(ready)
    pthread_mutex_unlock(mutex)
  }

  /// Whether the caller runs on the draining thread.
  var isCurrentThread: Bool {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    guard let thread else { return false }
    return pthread_equal(thread, pthread_self()) != 0
  }

  /// The draining thread's loop: takes jobs in order, runs each outside the lock, and returns
  /// once finishing was asked and nothing is left.
  private func drain() {
    pthread_mutex_lock(mutex)
    thread = pthread_self()
    while true {
      while head == jobs.count && !finishing {
        pthread_cond_wait(ready, mutex)
      }
      if head == jobs.count {
        thread = nil
        pthread_mutex_unlock(mutex)
        return
      }
      let job = jobs[head]
      head += 1
      if head == jobs.count {
        jobs.removeAll(keepingCapacity: true)
        head = 0
      }
      pthread_mutex_unlock(mutex)
      job()
      pthread_mutex_lock(mutex)
    }
  }
}
