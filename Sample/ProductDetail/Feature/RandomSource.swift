/// Random numbers for the features' effects, from a generator that tests and `--seed` can fix.
///
/// An actor, so effects running at the same time share one generator safely.
///
/// ```swift
/// let random = RandomSource(seed: 1)
/// let roll = await random.int(in: 1..<10)  // the same roll on every run
/// ```
public actor RandomSource {
  private var generator: any RandomNumberGenerator & Sendable

  /// Creates a deterministic source: the same seed gives the same numbers on every run.
  ///
  /// - Parameter seed: Any value; each gives its own sequence.
  public init(seed: UInt64) {
    generator = SeededRandomNumberGenerator(seed: seed)
  }

  /// Creates a source of the system's random numbers, different on every run.
  public init() {
    generator = SystemRandomNumberGenerator()
  }

  /// Creates a source of the numbers of `generator`.
  ///
  /// - Parameter generator: The generator, which the source owns from now on.
  public init(generator: some RandomNumberGenerator & Sendable) {
    self.generator = generator
  }

  /// A random integer in `range`, as `Int.random(in:using:)` draws it.
  ///
  /// - Parameter range: The possible values; must not be empty.
  /// - Returns: One of them.
  public func int(in range: Range<Int>) -> Int {
    Int.random(in: range, using: &generator)
  }
}

/// A small, fast, seeded generator (SplitMix64): the same seed gives the same sequence on every
/// platform.
public struct SeededRandomNumberGenerator: RandomNumberGenerator, Sendable {
  private var state: UInt64

  /// Creates a generator.
  ///
  /// - Parameter seed: Any value; each gives its own sequence.
  public init(seed: UInt64) {
    state = seed
  }

  /// The next 64 random bits.
  ///
  /// - Returns: A value spread evenly over all of `UInt64`.
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var mixed = state
    mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
    mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
    return mixed ^ (mixed >> 31)
  }
}
