/// A command line a sample cannot run with.
public struct UsageError: Error, CustomStringConvertible {
  /// What is wrong, naming the bad argument.
  public let description: String

  /// Creates an error with its message.
  ///
  /// - Parameter description: What is wrong.
  public init(_ description: String) {
    self.description = description
  }
}

/// The command-line rules the samples share: `--name value` or `--name=value`, `-h` for
/// `--help`, each option at most once, and `--` passed along by `swift run` skipped.
public enum CommandLineOptions {
  /// Reads `arguments`, calling `read` with each option's name and a way to get its value.
  ///
  /// ```swift
  /// try CommandLineOptions.parse(arguments) { option, value throws(UsageError) in
  ///   switch option {
  ///   case "--help": showsHelp = true
  ///   case "--seed": seed = try CommandLineOptions.seed(try value())
  ///   default: return false
  ///   }
  ///   return true
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - arguments: The arguments after the program's name.
  ///   - read: Handles one option; returns `false` for an option it does not know.
  /// - Throws: A message naming the bad argument: unknown, repeated, or missing its value.
  public static func parse(
    _ arguments: [String],
    _ read: (_ option: String, _ value: () throws(UsageError) -> String) throws(UsageError)
      -> Bool
  ) throws(UsageError) {
    var remaining = arguments[...]
    // `swift run pdp -- --speed 10` may pass the separator along.
    if remaining.first == "--" { remaining = remaining.dropFirst() }
    var seen: Set<String> = []
    while let argument = remaining.popFirst() {
      var name = argument
      var inlineValue: String?
      if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
        name = String(argument[..<equals])
        inlineValue = String(argument[argument.index(after: equals)...])
      }
      // A repeated option is a mistake to point out, not a value to override silently.
      let option = name == "-h" ? "--help" : name
      guard !seen.contains(option) else { throw UsageError("option \(option) is given twice") }
      seen.insert(option)
      func value() throws(UsageError) -> String {
        if let inlineValue { return inlineValue }
        guard let next = remaining.popFirst() else {
          throw UsageError("option \(name) needs a value")
        }
        return next
      }
      guard try read(option, value) else { throw UsageError("unknown argument '\(argument)'") }
    }
  }

  /// The value of `--speed`, checked against the speeds a sample accepts.
  ///
  /// - Parameters:
  ///   - text: The option's value.
  ///   - speeds: The speeds the sample accepts.
  /// - Returns: The speed.
  /// - Throws: A message naming the range, when `text` is not a number in it.
  public static func speed(_ text: String, in speeds: ClosedRange<Double>) throws(UsageError)
    -> Double
  {
    guard let speed = Double(text), speeds.contains(speed) else {
      let range = "\(speeds.lowerBound.formatted) to \(speeds.upperBound.formatted)"
      throw UsageError("--speed needs a number from \(range), not '\(text)'")
    }
    return speed
  }

  /// The value of `--seed`: a whole number from 0 up.
  ///
  /// - Parameter text: The option's value.
  /// - Returns: The seed.
  /// - Throws: A message, when `text` is not such a number.
  public static func seed(_ text: String) throws(UsageError) -> UInt64 {
    guard let seed = UInt64(text) else {
      throw UsageError("--seed needs a whole number from 0 up, not '\(text)'")
    }
    return seed
  }
}

extension Double {
  /// The number as a person writes it: `1000`, not `1000.0`.
  fileprivate var formatted: String {
    rounded() == self ? String(Int(self)) : String(self)
  }
}
