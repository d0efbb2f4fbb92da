#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A serial executor with a thread of its own, for work that blocks: a sync, a file read, a
/// wait for a group commit.
///
/// Swift's cooperative thread pool has one thread per processor. A task that blocks one of them
/// on a system call takes a processor's worth of progress from every other task in the process
/// until the call returns, and enough of them stall it entirely. Stoic's asynchronous APIs
/// therefore never block a cooperative thread: an actor whose methods sync (``Outbox``) runs on
/// a `BlockingExecutor` of its own (its `unownedExecutor`), and a one-off blocking call from
/// async code goes through ``run(_:)``.
///
/// ```swift
/// let executor = BlockingExecutor()
/// let records = try await executor.run { () throws(StoreError) in
///   try journal.records(from: 1)  // blocks this executor's thread, not the pool
/// }
/// ```
///
/// The thread is started by the initializer and ends once the executor is released and every
/// job it was given has run. Jobs run one at a time, in the order they were enqueued.
public final class BlockingExecutor: SerialExecutor, @unchecked Sendable {
  private let queue: BlockingJobQueue

  /// Starts the executor's thread. Where no thread can be made (the process is out of threads),
  /// jobs run on the thread that enqueues them instead: slower for that caller, never lost.
  public init() {
    queue = BlockingJobQueue()
    queue.start()
  }

  deinit {
    queue.finish()
  }

  /// Runs `job` on this executor's thread, after the jobs enqueued before it.
  public func enqueue(_ job: consuming ExecutorJob) {
    let unowned = UnownedJob(job)
    let executor = asUnownedSerialExecutor()
    queue.push { unowned.runSynchronously(on: executor) }
  }

  /// This executor as actors refer to it.
  public func asUnownedSerialExecutor() -> UnownedSerialExecutor {
    UnownedSerialExecutor(ordinary: self)
  }

  /// Runs `body` on this executor's thread and returns its result to the caller, which is
  /// suspended meanwhile (its own thread, a cooperative one included, is free to do other work).
  ///
  /// - Throws: What `body` throws.
  public func run<Result: Sendable, Failure: Error>(
    _ body: @escaping @Sendable () throws(Failure) -> Result
  ) async throws(Failure) -> Result {
    // A hop onto an actor isolated to this executor, rather than a continuation resumed from the
    // executor's thread: the job hand-offs of a hop are what ThreadSanitizer understands, while a
    // continuation resumed from another thread before its task suspends is reported as a race in
    // `withUnsafeContinuation` (a known false positive of the toolchain's runtime).
    try await BlockingExecutorHop(executor: self).perform(body)
  }

  /// Whether the calling thread is this executor's thread.
  public var isCurrent: Bool {
    queue.isCurrentThread
  }
}

/// An actor that runs on a ``BlockingExecutor``, for ``BlockingExecutor/run(_:)``: calling its
/// method moves the calling task onto the executor's thread, and returning moves it back.
private actor BlockingExecutorHop {
  private let executor: BlockingExecutor

  init(executor: BlockingExecutor) {
    self.executor = executor
  }

  nonisolated var unownedExecutor: UnownedSerialExecutor {
    executor.asUnownedSerialExecutor()
  }

  func perform<Result: Sendable, Failure: Error>(
    _ body: @Sendable () throws(Failure) -> Result
  ) throws(Failure) -> Result {
    try body()
  }
}
