public import ArchitectureKit
public import ProductDetailFeature

/// The state of the cart sheet: the confirmation it shows, and the emptying it waits for.
///
/// ```swift
/// var sheet = CartSheetState()
/// CartSheet.reduce(&sheet, .emptyTapped)          // asks: "Empty the cart?"
/// CartSheet.reduce(&sheet, .confirmation(.empty)) // (the dialog is dismissed by `dialog`)
/// sheet.request                                   // .emptyCart
/// ```
public struct CartSheetState: Hashable, Sendable, Codable {
  /// The confirmation dialog, while it asks.
  @Presented public var confirmation: DialogState<CartSheetEvent.Confirmation>?
  /// Whether the cart is being emptied.
  public var isEmptying: Bool
  /// Why the last emptying failed, if it did.
  public var failure: ProductDetailError?

  /// Creates a sheet; the default shows the cart, asking nothing.
  ///
  /// - Parameters:
  ///   - confirmation: The confirmation dialog, while it asks.
  ///   - isEmptying: Whether the cart is being emptied.
  ///   - failure: Why the last emptying failed.
  public init(
    confirmation: DialogState<CartSheetEvent.Confirmation>? = nil,
    isEmptying: Bool = false,
    failure: ProductDetailError? = nil
  ) {
    self.confirmation = confirmation
    self.isEmptying = isEmptying
    self.failure = failure
  }

  /// The work the feedback runs: emptying the cart, while it is asked for.
  public var request: CartSheetRequest? {
    isEmptying ? .emptyCart : nil
  }
}

/// What can happen in the cart sheet.
public enum CartSheetEvent: Hashable, Sendable, Codable {
  /// The answer a confirmation dialog of the sheet can give, besides Cancel.
  public enum Confirmation: Hashable, Sendable, Codable {
    /// Empty the cart.
    case empty
  }

  /// The user asked to empty the cart: the sheet asks for a confirmation.
  case emptyTapped
  /// The user answered the confirmation: the button's action, `nil` for Keep.
  case confirmation(Confirmation?)
  /// The cart is empty.
  case emptied
  /// The cart could not be emptied.
  case emptyFailed(ProductDetailError)
  /// The user closed the sheet.
  case closeTapped
}

/// Work the cart sheet waits for.
public enum CartSheetRequest: Hashable, Sendable {
  /// Empty the cart.
  case emptyCart
}
