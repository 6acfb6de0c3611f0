import SampleTerminal

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
  /// The file the session's journal is written to, if any.
  var journalPath: String?
  /// Whether to print the usage and quit.
  var showsHelp = false

  static let usage = """
    usage: shop [--speed N] [--seed N] [--cart PATH] [--catalog PATH]
                [--record FILE]

    A shop made of features: a list of the catalog, a search over it, the product detail
    pages of the chosen products, pushed over the list, and the cart in a sheet.
    In the list:    \(ShopCommand.listHelp)
    In the search:  \(ShopCommand.searchHelp)
    On a product:   \(ShopCommand.pageHelp)
    In the cart:    \(ShopCommand.cartHelp)
    In a question:  \(ShopCommand.confirmationHelp)
    Ctrl-C and Ctrl-D quit anywhere; fg brings a suspended shop back.

    options:
      --speed N         a number from 0.1 to 1000: divide every latency by N (default 1:
                        0.3 s to search, 0.5 s per row, 3 s to open a product)
      --seed N          seed the random source, so add-to-cart failures repeat
      --cart PATH       the cart file, in a folder that exists (default at a terminal:
                        ArchitectureKit/cart.json in the user's data directory,
                        $XDG_DATA_HOME or ~/.local/share, created if needed; in a script:
                        a cart in memory, empty on every run)
      --catalog PATH    read the products from PATH instead of the bundled catalog
      --record FILE     write a journal of the session to FILE (JSON Lines, each step as it
                        happens), to replay it in a test or read it with `swift run inspect`
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
    try CommandLineOptions.parse(arguments) { option, value throws(UsageError) in
      switch option {
      case "--help": showsHelp = true
      case "--speed": speed = try CommandLineOptions.speed(try value(), in: Self.speeds)
      case "--seed": seed = try CommandLineOptions.seed(try value())
      case "--cart": cartPath = try value()
      case "--catalog": catalogPath = try value()
      case "--record": journalPath = try value()
      default: return false
      }
      return true
    }
  }
}
