/// The seed's analytics hook: one named event per change of what the page shows.
///
/// The names are the seed's: `pdpShown` for the page before loading, then `pdpLoading`,
/// `productLoaded`, `pdpAddedToCart` and `pdpError` (for a failed load, and for a failed add
/// beside its product). A step that changes nothing, or only starts an add to cart, records
/// nothing.
///
/// ```swift
/// let analytics = ProductDetailAnalytics { name in log.append(name) }
/// analytics.track(page.state)              // pdpShown
/// page.addLoopCallback(analytics.track)   // one line per later change
/// ```
@MainActor
public final class ProductDetailAnalytics {
  private let record: (String) -> Void
  private var lastState: ProductDetailState?

  /// Creates a tracker.
  ///
  /// - Parameter record: Stores one event name, such as appending it to a file.
  public init(record: @escaping (String) -> Void) {
    self.record = record
  }

  /// The event name of `state`, or `nil` while an add to cart runs on an unchanged page.
  ///
  /// - Parameter state: A state of the page.
  /// - Returns: `pdpShown`, `pdpLoading`, `productLoaded`, `pdpAddedToCart`, `pdpError` or
  ///   `nil`.
  public nonisolated static func eventName(for state: ProductDetailState) -> String? {
    guard !state.isAddingToCart else { return nil }
    return switch state.screen {
    case .start: "pdpShown"
    case .loading: "pdpLoading"
    case .productLoaded: "productLoaded"
    case .addedToCart: "pdpAddedToCart"
    case .addToCartFailed, .error: "pdpError"
    }
  }

  /// Records the event of `state` if it differs from the last state tracked.
  ///
  /// Pass it to ``System/addLoopCallback(_:)``, after tracking the initial state.
  ///
  /// - Parameter state: The page's new state.
  public func track(_ state: ProductDetailState) {
    guard state != lastState else { return }
    lastState = state
    if let name = Self.eventName(for: state) { record(name) }
  }
}
