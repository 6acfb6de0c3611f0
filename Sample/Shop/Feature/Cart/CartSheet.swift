public import ArchitectureKit

/// The cart sheet: what the cart holds, a way to empty it after a confirmation, and a way out.
///
/// The cart's contents stay in the shop (``ShopState/cartCount`` and
/// ``ShopState/addedProducts``), which the pages under the sheet keep updating while it is
/// open; the sheet keeps only what it does itself: the confirmation dialog, and the request to
/// empty the cart.
///
/// - ``CartSheetEvent/emptyTapped`` asks first, with a confirmation dialog (`DialogState`);
/// - ``CartSheetEvent/confirmation(_:)`` is the answer: ``CartSheetEvent/Confirmation/empty``
///   empties the cart, `nil` (Keep) leaves it; either way the dialog goes away (`dialog`);
/// - ``CartSheetEvent/closeTapped`` ends the sheet (`dismissing(on:)`).
public enum CartSheet: Sendable {
  /// The confirmation the sheet asks for before it empties the cart.
  public static let emptyConfirmation = DialogState<CartSheetEvent.Confirmation>
    .confirmationDialog(
      title: "Empty the cart?",
      message: "Everything in it is removed.",
      buttons: [.destructive("Empty", action: .empty), .cancel("Keep")]
    )

  /// The sheet's reducer, in mutating form.
  ///
  /// - Parameters:
  ///   - state: The sheet, changed in place.
  ///   - event: What happened.
  public static func reduce(_ state: inout CartSheetState, _ event: CartSheetEvent) {
    switch event {
    case .emptyTapped:
      guard !state.isEmptying else { return }
      state.failure = nil
      state.confirmation = emptyConfirmation
    case .confirmation(.empty):
      state.isEmptying = true
    case .confirmation(nil), .closeTapped:
      break
    case .emptied:
      state.isEmptying = false
    case .emptyFailed(let error):
      state.isEmptying = false
      state.failure = error
    }
  }

  /// The sheet: its reducer, the feedback that empties the cart, its dialog, and its own end.
  public static var feature: Feature<CartSheetState, CartSheetEvent, Never, ShopContext> {
    Feature(
      reduce: reduce,
      feedback: [
        .react(
          request: \.request,
          effect: .run { _, context in
            switch await context.api.emptyCart().run(context) {
            case .success: .emptied
            case .failure(let error): .emptyFailed(error)
            }
          })
      ]
    )
    .dialog(\.$confirmation, event: CartSheetEvent.confirmation)
    .dismissing(on: { $0 == .closeTapped })
  }
}
