/// A presented child that ends its own presentation.
extension Feature {
  /// The same feature, which ends its own presentation on the events `isDismissal` accepts: a
  /// sheet's Close button, a screen popped once its work is saved.
  ///
  /// When the feature is presented — with ``presents(_:state:event:extract:context:error:)``,
  /// on a ``Stack`` with ``forEach(_:stack:event:extract:context:error:)``, with
  /// ``ifLet(_:state:event:extract:context:error:)``, or as an element of
  /// ``forEach(_:elements:event:extract:context:error:)`` — such an event is reduced by the
  /// feature first, then the presentation ends (the presented or optional state becomes `nil`,
  /// the stack element is popped with the ones above it, the element is removed from its
  /// array) and its effects are cancelled; then the parent's reducer runs on the event, as for
  /// any child event, and sees the child gone. No parent case is needed; one that wants to know
  /// can match the event. A parent that needs the child's last state handles the event itself
  /// and dismisses the child, instead of this modifier. A feature that nothing presents, such as
  /// a system's root, ignores its dismissal.
  ///
  /// ```swift
  /// Settings.feature.dismissing(on: { $0 == .closeTapped || $0 == .saved })
  /// ```
  ///
  /// ``scope(_:state:event:extract:context:error:)`` and
  /// ``ifCase(_:case:event:extract:context:error:)`` pass a child's dismissal on to the feature
  /// that presents them.
  ///
  /// - Parameter isDismissal: Whether an event of this feature ends its presentation.
  /// - Returns: The feature.
  public func dismissing(on isDismissal: @escaping (Event) -> Bool) -> Feature {
    wrapping { reduce in
      { state, event in
        let outcome = reduce(&state, event)
        return outcome == nil && isDismissal(event) ? .dismissed : outcome
      }
    }
  }
}
