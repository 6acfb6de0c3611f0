import Testing

/// A named function of integers, so that a parameterized law test says which one broke it.
struct IntFunction: Sendable, CustomTestStringConvertible {
  let testDescription: String
  let apply: @Sendable (Int) -> Int

  init(_ name: String, _ apply: @escaping @Sendable (Int) -> Int) {
    self.testDescription = name
    self.apply = apply
  }

  /// Functions with different shapes: identity, constant, injective, lossy, sign-flipping.
  ///
  /// Wrapping arithmetic keeps them total on the extreme inputs.
  static let samples: [IntFunction] = [
    IntFunction("identity") { $0 },
    IntFunction("increment") { $0 &+ 1 },
    IntFunction("double") { $0 &* 2 },
    IntFunction("negate") { 0 &- $0 },
    IntFunction("square") { $0 &* $0 },
    IntFunction("halve") { $0 / 2 },
    IntFunction("constant 7") { _ in 7 },
  ]
}

/// Two functions, for the laws that compose them.
struct IntFunctionPair: Sendable, CustomTestStringConvertible {
  let first: IntFunction
  let second: IntFunction

  var testDescription: String {
    "\(first.testDescription), then \(second.testDescription)"
  }

  /// Every ordered pair of ``IntFunction/samples``.
  static let samples: [IntFunctionPair] = IntFunction.samples.flatMap { first in
    IntFunction.samples.map { IntFunctionPair(first: first, second: $0) }
  }
}

/// A value and an environment (context) to check a law with.
struct LawInput: Sendable, CustomTestStringConvertible {
  let value: Int
  let environment: Int

  var testDescription: String {
    "value \(value) in environment \(environment)"
  }

  /// Small, large, signed and extreme values, each with a different environment.
  static let samples: [LawInput] = {
    let values = [Int.min, -1_000_003, -42, -3, -1, 0, 1, 2, 3, 9, 100, 65_537, Int.max]
    let environments = [0, 1, -5, 12, Int.max]
    return values.enumerated().map { index, value in
      LawInput(value: value, environment: environments[index % environments.count])
    }
  }()
}

/// The failure of the law tests' fallible computations; it carries the value that failed.
struct LawError: Error, Equatable {
  let value: Int
}

/// The failure of the behaviour tests.
enum TestError: Error, Equatable {
  case first
  case second
  case other(Int)
}
