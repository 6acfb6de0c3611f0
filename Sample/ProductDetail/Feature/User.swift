/// The signed-in user, whose cart the product goes to.
public struct User: Codable, Hashable, Sendable {
  /// The user's name.
  public var name: String

  /// Creates a user.
  ///
  /// - Parameter name: The user's name.
  public init(name: String) {
    self.name = name
  }
}
