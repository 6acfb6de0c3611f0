import FunctionalCore
import TestDoubles

/// Where effects stop until the test lets them go, so a test can end a screen while its effect
/// is under way and then make the effect answer late.
///
/// Each run of an effect at a key stops at a checkpoint of its own (the first run at `a` is
/// run 1, the next one run 2, …). A stopped run goes on waiting when its task is cancelled, as
/// work already under way on another thread does: only the runtime can drop what it answers.
final class Checkpoints: Sendable {
  private struct Checkpoint: Sendable {
    let arrived = Gate()
    let released = Gate(ignoringCancellation: true)
  }

  private struct Contents {
    var runs: [String: Int] = [:]
    var checkpoints: [String: Checkpoint] = [:]
    var isReleasingAll = false

    mutating func checkpoint(_ key: String, run: Int) -> Checkpoint {
      let name = "\(key)#\(run)"
      if let checkpoint = checkpoints[name] { return checkpoint }
      let checkpoint = Checkpoint()
      if isReleasingAll { checkpoint.released.open() }
      checkpoints[name] = checkpoint
      return checkpoint
    }
  }

  private let contents = Lock(Contents())

  /// Stops the effect at the next run's checkpoint of `key` until the test releases it.
  ///
  /// - Returns: The run's number.
  func pass(_ key: String) async -> Int {
    let (run, checkpoint) = contents.withLock { contents in
      contents.runs[key, default: 0] += 1
      let run = contents.runs[key, default: 0]
      return (run, contents.checkpoint(key, run: run))
    }
    checkpoint.arrived.open()
    await checkpoint.released.wait()
    return run
  }

  /// Returns once the `run`-th run of `key` stopped at its checkpoint (or the test's task is
  /// cancelled, past its time limit).
  func arrival(at key: String, run: Int = 1) async {
    await contents.withLock { $0.checkpoint(key, run: run) }.arrived.wait()
  }

  /// Lets the `run`-th run of `key` go on, now or when it comes.
  func release(_ key: String, run: Int = 1) {
    contents.withLock { $0.checkpoint(key, run: run) }.released.open()
  }

  /// Lets every run go on, now and from now on: what a test does last, so no effect outlives
  /// it.
  func releaseAll() {
    let checkpoints = contents.withLock { contents in
      contents.isReleasingAll = true
      return Array(contents.checkpoints.values)
    }
    for checkpoint in checkpoints { checkpoint.released.open() }
  }

  /// How many runs of `key` reached their checkpoint.
  func runs(of key: String) -> Int {
    contents.withLock { $0.runs[key, default: 0] }
  }
}

/// The context of the navigation fixtures: the checkpoints, and the place of the screen that
/// runs an effect, so each screen's effects stop at checkpoints of their own.
struct CheckpointContext: Sendable {
  let checkpoints: Checkpoints
  /// Where the screen is: `destination.editor`, `path.viewer`.
  var place = ""

  /// The context of a screen one place further in.
  func at(_ name: String) -> CheckpointContext {
    var context = self
    context.place = place.isEmpty ? name : "\(place).\(name)"
    return context
  }

  /// Stops at the checkpoint of `subject` in this place (`destination.editor a`).
  func pass(_ subject: String) async -> Int {
    await checkpoints.pass(key(subject))
  }

  /// The checkpoint key of `subject` in this place.
  func key(_ subject: String) -> String {
    place.isEmpty ? subject : "\(place) \(subject)"
  }
}
