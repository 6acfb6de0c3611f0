public import ArchitectureKit

/// What the shop presents over its list or its pages: one kind today, the cart sheet.
///
/// The shop keeps it in ``ShopState/destination``, a `@Presented` property: opening the cart
/// presents a new sheet, and closing it (from inside, or by the shop) cancels the sheet's work.
public enum ShopDestination: Sendable {
  /// A presented destination.
  public enum State: Hashable, Sendable, Codable {
    /// The cart sheet.
    case cart(CartSheetState)
  }

  /// What can happen in a presented destination.
  public enum Event: Hashable, Sendable, Codable {
    /// An event of the cart sheet.
    case cart(CartSheetEvent)
  }

  /// The destinations, one case each.
  public static var feature: Feature<State, Event, Never, ShopContext> {
    Feature(reduce: { _, _ in })
      .ifCase(CartSheet.feature, case: State.cart, event: Event.cart, context: { shop, _ in shop })
  }
}
