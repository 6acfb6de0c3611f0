/// The cart kept in a JSON file, so it outlives the app.
///
/// Each add reads the file again, appends the item and replaces the file atomically. A file
/// that cannot be read or is not a cart is reported and never overwritten, even if it went bad
/// while the app was running.
public actor CartFile: CartStorage {
  /// The file's path.
  public nonisolated let path: String

  /// Creates a cart kept at `path`; nothing is read or written yet.
  ///
  /// - Parameter path: The file; it and its folders are created on the first add.
  public init(path: String) {
    self.path = path
  }

  /// The default place of the cart file: the user's data directory.
  ///
  /// `$XDG_DATA_HOME/ArchitectureKit/cart.json` when `XDG_DATA_HOME` is set, otherwise
  /// `~/Library/Application Support/ArchitectureKit/cart.json` on Apple platforms and
  /// `~/.local/share/ArchitectureKit/cart.json` elsewhere.
  ///
  /// - Parameter environment: The process's environment variables.
  /// - Returns: The path, or `nil` when neither `XDG_DATA_HOME` nor `HOME` is set.
  public static func defaultPath(environment: [String: String]) -> String? {
    if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
      return data + "/ArchitectureKit/cart.json"
    }
    guard let home = environment["HOME"], !home.isEmpty else { return nil }
    #if canImport(Darwin)
      return home + "/Library/Application Support/ArchitectureKit/cart.json"
    #else
      return home + "/.local/share/ArchitectureKit/cart.json"
    #endif
  }

  /// The cart in the file; an empty cart when there is no file yet.
  ///
  /// - Returns: The stored cart.
  /// - Throws: A ``DataFileError`` naming the file when it cannot be read or is not a cart.
  public func load() throws(DataFileError) -> Cart {
    try Self.load(from: path)
  }

  /// Adds `item` to the cart in the file.
  ///
  /// - Parameter item: The item to add.
  /// - Returns: How many items the cart holds now.
  /// - Throws: A ``DataFileError`` when the file cannot be read, is not a cart, or cannot be
  ///   written; the file is then left as it was.
  public func add(_ item: CartItem) throws(DataFileError) -> Int {
    var cart = try load()
    cart.items.append(item)
    try DataFile.write(JSONFile.encode(cart), to: path, role: "cart")
    return cart.items.count
  }

  /// Reads the cart at `path` without making a `CartFile`, to check the file at startup.
  ///
  /// - Parameter path: The cart file.
  /// - Returns: The stored cart; an empty cart when there is no file yet.
  /// - Throws: A ``DataFileError`` naming the file when it cannot be read or is not a cart.
  public static func load(from path: String) throws(DataFileError) -> Cart {
    guard DataFile.exists(path) else { return Cart() }
    let data = try DataFile.read(path, role: "cart")
    return try JSONFile.decode(Cart.self, from: data, path: path, role: "cart")
  }
}
