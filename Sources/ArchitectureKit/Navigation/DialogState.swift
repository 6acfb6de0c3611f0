/// An alert or a confirmation dialog, as state: a title, a message and buttons whose taps send
/// the parent's events.
///
/// Present one with a `@Presented` property and compose it with
/// ``Feature/dialog(_:event:)``; a tap on any button sends the parent its action (`nil` for a
/// button without one, such as Cancel) and dismisses the dialog:
///
/// ```swift
/// struct Cart: Equatable {
///   var items: [String] = []
///   @Presented var confirmation: DialogState<Action>?
///   enum Action: Equatable, Sendable { case empty }
/// }
///
/// // In the reducer:
/// case .emptyTapped:
///   cart.confirmation = .confirmationDialog(
///     title: "Empty the cart?",
///     buttons: [.destructive("Empty", action: .empty), .cancel("Keep")])
/// case .confirmation(.empty):
///   cart.items = []
/// case .confirmation(nil):
///   break  // cancelled
///
/// // The feature:
/// Feature(reduce: reduce).dialog(\.$confirmation, event: Event.confirmation)
/// ```
///
/// A view shows ``title``, ``message`` and ``buttons`` and sends
/// `Event.confirmation(button.action)` on a tap.
///
/// A dialog whose actions are `Codable` is `Codable` too, so a state that shows one can be
/// written to a journal and replayed.
public struct DialogState<Action> {
  /// Whether the dialog interrupts as an alert or offers choices as a confirmation dialog.
  public enum Style: Sendable, Hashable, Codable {
    /// An alert: a message the user must answer.
    case alert
    /// A confirmation dialog: a choice about an action the user started.
    case confirmationDialog
  }

  /// A dialog's button.
  public struct Button {
    /// What a button's look says about its action.
    public enum Role: Sendable, Hashable, Codable {
      /// Leaves things as they are.
      case cancel
      /// Destroys something.
      case destructive
    }

    /// The button's label.
    public var title: String
    /// What the button's look says, if anything.
    public var role: Role?
    /// The parent's action a tap sends; `nil` sends only the dismissal.
    public var action: Action?

    /// A button.
    ///
    /// - Parameters:
    ///   - title: The label.
    ///   - role: What the look says, if anything.
    ///   - action: The action a tap sends; `nil` sends only the dismissal.
    public init(_ title: String, role: Role? = nil, action: Action? = nil) {
      self.title = title
      self.role = role
      self.action = action
    }

    /// A Cancel button: it sends no action.
    ///
    /// - Parameter title: The label.
    /// - Returns: The button.
    public static func cancel(_ title: String = "Cancel") -> Button {
      Button(title, role: .cancel)
    }

    /// A button for an action that destroys something.
    ///
    /// - Parameters:
    ///   - title: The label.
    ///   - action: The action a tap sends.
    /// - Returns: The button.
    public static func destructive(_ title: String, action: Action) -> Button {
      Button(title, role: .destructive, action: action)
    }
  }

  /// Alert or confirmation dialog.
  public var style: Style
  /// The title.
  public var title: String
  /// The message under the title, if any.
  public var message: String?
  /// The buttons, in order; a dialog with none shows an OK that sends no action.
  public var buttons: [Button]

  /// A dialog.
  ///
  /// - Parameters:
  ///   - style: Alert or confirmation dialog.
  ///   - title: The title.
  ///   - message: The message under the title, if any.
  ///   - buttons: The buttons, in order.
  public init(style: Style, title: String, message: String? = nil, buttons: [Button] = []) {
    self.style = style
    self.title = title
    self.message = message
    self.buttons = buttons
  }

  /// An alert.
  ///
  /// - Parameters:
  ///   - title: The title.
  ///   - message: The message under the title, if any.
  ///   - buttons: The buttons, in order; none shows an OK that sends no action.
  /// - Returns: The dialog.
  public static func alert(
    title: String, message: String? = nil, buttons: [Button] = []
  ) -> DialogState {
    DialogState(style: .alert, title: title, message: message, buttons: buttons)
  }

  /// A confirmation dialog.
  ///
  /// - Parameters:
  ///   - title: The title.
  ///   - message: The message under the title, if any.
  ///   - buttons: The choices, in order.
  /// - Returns: The dialog.
  public static func confirmationDialog(
    title: String, message: String? = nil, buttons: [Button]
  ) -> DialogState {
    DialogState(style: .confirmationDialog, title: title, message: message, buttons: buttons)
  }
}

extension DialogState: Equatable where Action: Equatable {}
extension DialogState: Hashable where Action: Hashable {}
extension DialogState: Sendable where Action: Sendable {}
extension DialogState.Button: Equatable where Action: Equatable {}
extension DialogState.Button: Hashable where Action: Hashable {}
extension DialogState.Button: Sendable where Action: Sendable {}
extension DialogState: Encodable where Action: Encodable {}
extension DialogState: Decodable where Action: Decodable {}
extension DialogState.Button: Encodable where Action: Encodable {}
extension DialogState.Button: Decodable where Action: Decodable {}

extension DialogState where Action: Sendable {
  /// A dialog as a feature: every tap dismisses it.
  ///
  /// For a dialog that is one case of a destination enum, beside the sheets, so at most one of
  /// them is shown at a time.
  ///
  /// ```swift
  /// Feature<Destination.State, Destination.Event, Never, AppContext>(reduce: { _, _ in })
  ///   .ifCase(
  ///     DialogState<AlertAction>.feature(), case: Destination.State.alert,
  ///     event: Destination.Event.alert, context: { _, _ in () })
  /// ```
  ///
  /// A tap sends `embed(button.action)`; the case's dismissal ends the destination's
  /// presentation, and the parent's reducer sees the tap.
  ///
  /// - Returns: The dialog's feature.
  public static func feature<Context: Sendable>() -> Feature<DialogState, Action?, Never, Context> {
    Feature<DialogState, Action?, Never, Context>(reduce: { _, _ in }).dismissing(on: { _ in true })
  }
}
