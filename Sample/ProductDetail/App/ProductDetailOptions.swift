import SampleTerminal

/// The command line of `pdp`.
struct ProductDetailOptions: Equatable {
  /// How many times faster than real time the API's latencies pass, within ``speeds``.
  var speed: Double = 1

  /// The speeds `--speed` accepts.
  ///
  /// From ten times slower (a 30 s load, to watch the spinner) to a thousand times faster
  /// (3 ms, for scripts). Faster changes nothing a person or a script could see, and a speed
  /// far out of range is more likely a typo than a wish.
  static let speeds: ClosedRange<Double> = 0.1...1000

  /// The seed of the random source, for repeatable runs; `nil` draws fresh numbers.
  var seed: UInt64?
  /// The cart file; `nil` for the default: the user's data directory at a terminal, memory in
  /// a script.
  var cartPath: String?
  /// The file the analytics events are appended to, if any.
  var analyticsPath: String?
  /// The catalog file; `nil` for the catalog shipped with the sample.
  var catalogPath: String?
  /// The file the session's journal is written to, if any.
  var journalPath: String?
  /// Whether to print the usage and quit.
  var showsHelp = false

  static let usage = """
    usage: pdp [--speed N] [--seed N] [--cart PATH] [--analytics FILE] [--catalog PATH]
               [--record FILE]

    The seed's product detail page: loads a product, adds it to your cart.
    Keys: \(ProductDetailCommand.help)
    a retries after a failed add; Ctrl-C and Ctrl-D quit too; fg brings a suspended page
    back; Enter shows the keys.

    options:
      --speed N         a number from 0.1 to 1000: divide every latency by N (default 1:
                        3 s to load the product; 1000 loads it in 3 ms)
      --seed N          seed the random source, so add-to-cart failures repeat
      --cart PATH       the cart file, in a folder that exists (default at a terminal:
                        ArchitectureKit/cart.json in the user's data directory,
                        $XDG_DATA_HOME or ~/.local/share, created if needed; in a script:
                        a cart in memory, empty on every run)
      --analytics FILE  append one analytics event per page change to FILE
      --catalog PATH    read the product from PATH instead of the bundled catalog
      --record FILE     write a journal of the session to FILE (JSON Lines, each step as it
                        happens), to replay it in a test or read it with `swift run inspect`
      -h, --help        show this help

    Each option may be given once. A bad command line exits with status 2.

    When standard input is not a terminal, pdp reads the keys from it, applies each once no
    request is running, skips line breaks and Ctrl-Z, and prints one line per state:

      printf 'aq' | pdp --speed 1000 --seed 1
    """

  /// Parses the arguments after the program's name.
  ///
  /// - Throws: A message naming the bad argument.
  init(arguments: [String]) throws(UsageError) {
    try CommandLineOptions.parse(arguments) { option, value throws(UsageError) in
      switch option {
      case "--help": showsHelp = true
      case "--speed": speed = try CommandLineOptions.speed(try value(), in: Self.speeds)
      case "--seed": seed = try CommandLineOptions.seed(try value())
      case "--cart": cartPath = try value()
      case "--analytics": analyticsPath = try value()
      case "--catalog": catalogPath = try value()
      case "--record": journalPath = try value()
      default: return false
      }
      return true
    }
  }
}
