/// Where the live API keeps the cart: a file in the app, memory in tests.
public protocol CartStorage: Sendable {
  /// Adds an item to the cart and keeps the cart.
  ///
  /// - Parameter item: The item to add.
  /// - Returns: How many items the cart holds now.
  /// - Throws: A ``DataFileError`` when the cart cannot be read or kept; the stored cart is then
  ///   left as it was.
  func add(_ item: CartItem) async throws(DataFileError) -> Int

  /// Empties the cart and keeps it.
  ///
  /// - Throws: A ``DataFileError`` when the cart cannot be read or kept; the stored cart is then
  ///   left as it was.
  func removeAll() async throws(DataFileError)
}

/// A user's cart, as the cart file stores it.
public struct Cart: Codable, Hashable, Sendable {
  /// The items, oldest first.
  public var items: [CartItem]

  /// Creates a cart.
  ///
  /// - Parameter items: The items, oldest first.
  public init(items: [CartItem] = []) {
    self.items = items
  }
}

/// One product put in the cart by one user.
public struct CartItem: Codable, Hashable, Sendable {
  /// The product's identifier in the catalog.
  public var productID: String
  /// The product's title when it was added.
  public var title: String
  /// The name of the user who added it.
  public var user: String

  /// Creates an item.
  ///
  /// - Parameters:
  ///   - productID: The product's identifier in the catalog.
  ///   - title: The product's title when it was added.
  ///   - user: The name of the user who added it.
  public init(productID: String, title: String, user: String) {
    self.productID = productID
    self.title = title
    self.user = user
  }
}
