import ArchitectureKit
import CounterFeature
import SampleTerminal

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The seed's counter as a terminal app: `+`/`-` (or the arrow keys) count, `q` or Esc quits,
/// Ctrl-Z suspends.
///
/// With standard input from a pipe it reads keys from it and prints each count on a line:
/// `printf '++-q' | swift run counter` prints 0, 1, 2 and 1.
@main
enum CounterApp {
  @MainActor
  static func main() async {
    switch Array(CommandLine.arguments.dropFirst()) {
    case []:
      break
    case ["-h"], ["--help"]:
      print(usage)
      return
    case let arguments:
      // The counter takes no option but help: anything else is a mistake to point out.
      let isHelp = { (argument: String) in argument == "-h" || argument == "--help" }
      let message =
        arguments.allSatisfy(isHelp)
        ? "option --help is given twice"
        : "unknown argument '\(arguments.first { !isHelp($0) } ?? "")'"
      Terminal.printError("counter: \(message)\nTry 'counter --help'.")
      exit(2)
    }
    let terminal: Terminal
    do {
      terminal = try Terminal(mode: .detected)
    } catch {
      Terminal.printError("counter: \(error)")
      exit(1)
    }
    let screen = CounterScreen(terminal: terminal)
    // The seed's buttons: the front end executes them, the system reduces their events.
    let plus = CounterUserAction(trigger: .increment)
    let minus = CounterUserAction(trigger: .decrement)
    let counter = Counter.start(userActions: [plus, minus], render: screen.show)

    loop: for await event in terminal.events {
      guard case .key(let key) = event else {
        screen.redraw()
        continue
      }
      switch CounterCommand(key) {
      case .increment: plus.execute()
      case .decrement: minus.execute()
      case .session(.quit): break loop
      case .session(.suspend):
        terminal.suspend()
        screen.redraw()
      case .session(.showKeys):
        // In a script, Enter is a line break between keys, not a key press.
        if terminal.mode == .interactive { screen.showKeys() }
      case nil: screen.showHint(for: key)
      }
    }
    // Reached on `q` and at the end of input alike: both quit cleanly.
    counter.stop()
    terminal.restore()
  }

  static let usage = """
    usage: counter [-h | --help]

    The seed's counter: counts up and down from 0.
    Keys: \(CounterCommand.help)
    Ctrl-C and Ctrl-D quit too; fg brings a suspended counter back; Enter shows the keys.

    When standard input is not a terminal, reads the keys from it and prints each count on a
    line of its own; line breaks and Ctrl-Z are skipped:

      printf '++-q' | counter    # prints 0, 1, 2, 1
    """
}
