import Dispatch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Signal handlers of an interactive session: terminating signals restore the terminal before
/// the process ends, and a window resize is reported.
///
/// Dispatch sources run the handlers on a queue, not in signal context, so they may do ordinary
/// work. They hold a copy of the saved settings and never touch the main actor, which may be
/// busy when the signal arrives.
final class SignalTraps {
  private let sources: [any DispatchSourceSignal]

  /// Installs the handlers.
  ///
  /// - Parameters:
  ///   - rawMode: The settings to restore when a terminating signal arrives.
  ///   - resized: Called on the queue after each window size change.
  init(restoring rawMode: RawMode, resized: @escaping @Sendable () -> Void) {
    let queue = DispatchQueue(label: "SampleTerminal.signals")
    var sources: [any DispatchSourceSignal] = []
    // SIGINT still comes from `kill -INT`, or from a terminal that bypasses raw mode.
    for number in [SIGINT, SIGTERM, SIGHUP, SIGQUIT] {
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
      source.setEventHandler {
        rawMode.restore()
        // The conventional status of a process ended by a signal.
        exit(128 + number)
      }
      source.resume()
      sources.append(source)
    }
    let resize = DispatchSource.makeSignalSource(signal: SIGWINCH, queue: queue)
    resize.setEventHandler(handler: resized)
    resize.resume()
    sources.append(resize)
    self.sources = sources
  }

  /// Removes the handlers and gives the signals their default behavior back.
  func cancel() {
    for source in sources {
      source.cancel()
      signal(Int32(source.handle), SIG_DFL)
    }
  }
}
