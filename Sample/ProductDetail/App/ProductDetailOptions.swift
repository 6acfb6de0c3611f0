/// The command line of `pdp`.
struct ProductDetailOptions: Equatable {
  /// How many times faster than real time the API's latencies pass.
  var speed: Double = 1
  /// The seed of the random source, for repeatable runs; `nil` draws fresh numbers.
  var seed: UInt64?
  /// The cart file; `nil` for the default in the user's data directory.
  var cartPath: String?
  /// The file the analytics events are appended to, if any.
  var analyticsPath: String?
  /// The catalog file; `nil` for the catalog shipped with the sample.
  var catalogPath: String?
  /// Whether to print the usage and quit.
  var showsHelp = false

  static let usage = """
    usage: pdp [--speed N] [--seed N] [--cart PATH] [--analytics FILE] [--catalog PATH]

    The seed's product detail page: loads a product, adds it to your cart.
    Keys: \(ProductDetailCommand.help)
    a retries after a failed add; Ctrl-C and Ctrl-D quit too; fg brings a suspended page
    back; Enter shows the keys.

    options:
      --speed N         divide every latency by N (default 1: 3 s to load the product)
      --seed N          seed the random source, so add-to-cart failures repeat
      --cart PATH       the cart file (default: ArchitectureKit/cart.json in the user's
                        data directory, $XDG_DATA_HOME or ~/.local/share)
      --analytics FILE  append one analytics event per page change to FILE
      --catalog PATH    read the product from PATH instead of the bundled catalog
      -h, --help        show this help

    When standard input is not a terminal, pdp reads the keys from it, applies each once no
    request is running, skips line breaks and Ctrl-Z, and prints one line per state:

      printf 'aq' | pdp --speed 1000 --seed 1
    """

  /// Parses the arguments after the program's name.
  ///
  /// - Throws: A message naming the bad argument.
  init(arguments: [String]) throws(UsageError) {
    var remaining = arguments[...]
    // `swift run pdp -- --speed 10` may pass the separator along.
    if remaining.first == "--" { remaining = remaining.dropFirst() }
    while let argument = remaining.popFirst() {
      var name = argument
      var inlineValue: String?
      if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
        name = String(argument[..<equals])
        inlineValue = String(argument[argument.index(after: equals)...])
      }
      func value() throws(UsageError) -> String {
        if let inlineValue { return inlineValue }
        guard let next = remaining.popFirst() else {
          throw UsageError("option \(name) needs a value")
        }
        return next
      }
      switch name {
      case "-h", "--help":
        showsHelp = true
      case "--speed":
        let text = try value()
        guard let speed = Double(text), speed.isFinite, speed > 0 else {
          throw UsageError("--speed needs a number above 0, not '\(text)'")
        }
        self.speed = speed
      case "--seed":
        let text = try value()
        guard let seed = UInt64(text) else {
          throw UsageError("--seed needs a whole number from 0 up, not '\(text)'")
        }
        self.seed = seed
      case "--cart":
        cartPath = try value()
      case "--analytics":
        analyticsPath = try value()
      case "--catalog":
        catalogPath = try value()
      default:
        throw UsageError("unknown argument '\(argument)'")
      }
    }
  }
}

/// A command line `pdp` cannot run with.
struct UsageError: Error, CustomStringConvertible {
  let description: String

  init(_ description: String) {
    self.description = description
  }
}
