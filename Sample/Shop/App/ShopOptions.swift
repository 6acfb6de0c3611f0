/// The command line of `shop`.
struct ShopOptions: Equatable {
  /// How many times faster than real time the API's latencies pass, within ``speeds``.
  var speed: Double = 1

  /// The speeds `--speed` accepts: the product detail sample's, for the same reasons.
  static let speeds: ClosedRange<Double> = 0.1...1000

  /// The seed of the random source, for repeatable runs; `nil` draws fresh numbers.
  var seed: UInt64?
  /// The cart file; `nil` for the default: the user's data directory at a terminal, memory in
  /// a script.
  var cartPath: String?
  /// The catalog file; `nil` for the catalog shipped with the product detail sample.
  var catalogPath: String?
  /// Whether to print the usage and quit.
  var showsHelp = false

  static let usage = """
    usage: shop [--speed N] [--seed N] [--cart PATH] [--catalog PATH]

    A shop made of features: a list of the catalog, a search over it, the product detail
    page of the chosen product, and a cart badge.
    In the list:   \(ShopCommand.listHelp)
    In the search: \(ShopCommand.searchHelp)
    On a product:  \(ShopCommand.detailHelp)
    Ctrl-C and Ctrl-D quit anywhere; fg brings a suspended shop back.

    options:
      --speed N         a number from 0.1 to 1000: divide every latency by N (default 1:
                        0.3 s to search, 0.5 s per row, 3 s to open a product)
      --seed N          seed the random source, so add-to-cart failures repeat
      --cart PATH       the cart file (default at a terminal: ArchitectureKit/cart.json in
                        the user's data directory, $XDG_DATA_HOME or ~/.local/share; in a
                        script: a cart in memory, empty on every run)
      --catalog PATH    read the products from PATH instead of the bundled catalog
      -h, --help        show this help

    Each option may be given once. A bad command line exits with status 2.

    When standard input is not a terminal, shop reads the keys from it, applies each once no
    request is running, skips Ctrl-Z, and prints one line per change of what it shows; a line
    break is Enter, which opens the highlighted product:

      printf '\\033[B\\raq' | shop --speed 1000 --seed 1
    """

  /// Parses the arguments after the program's name.
  ///
  /// - Throws: A message naming the bad argument.
  init(arguments: [String]) throws(UsageError) {
    var remaining = arguments[...]
    // `swift run shop -- --speed 10` may pass the separator along.
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
      switch name {
      case "-h", "--help":
        showsHelp = true
      case "--speed":
        let text = try value()
        guard let speed = Double(text), Self.speeds.contains(speed) else {
          let range = "\(Self.speeds.lowerBound.formatted) to \(Self.speeds.upperBound.formatted)"
          throw UsageError("--speed needs a number from \(range), not '\(text)'")
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
      case "--catalog":
        catalogPath = try value()
      default:
        throw UsageError("unknown argument '\(argument)'")
      }
    }
  }
}

/// A command line `shop` cannot run with.
struct UsageError: Error, CustomStringConvertible {
  let description: String

  init(_ description: String) {
    self.description = description
  }
}

extension Double {
  /// The number as a person writes it: `1000`, not `1000.0`.
  fileprivate var formatted: String {
    rounded() == self ? String(Int(self)) : String(self)
  }
}
