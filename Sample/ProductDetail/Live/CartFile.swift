/// The cart kept in a JSON file, so it outlives the app.
///
/// Each add reads the file again, appends the item and replaces the file atomically. A file
/// that cannot be read or is not a cart is reported and never overwritten, even if it went bad
/// while the app was running.
public actor CartFile: CartStorage {
  /// The file's path.
  public nonisolated let path: String
  /// Whether a missing folder of the file is created, or reported.
  public nonisolated let createsFolders: Bool

  /// Creates a cart kept at `path`; nothing is read or written yet.
  ///
  /// - Parameters:
  ///   - path: The file; it is created on the first add.
  ///   - createsFolders: Whether the file's missing folders are created on the first add: yes
  ///     for the default place in the user's data directory; no for a path the user typed,
  ///     where a missing folder is more likely a typo, reported as
  ///     ``DataFileError/Problem/missingFolder``.
  public init(path: String, createsFolders: Bool = true) {
    self.path = path
    self.createsFolders = createsFolders
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
    try Self.load(from: path, createsFolders: createsFolders)
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
    try DataFile.write(
      JSONFile.encode(cart), to: path, role: "cart", createsFolders: createsFolders)
    return cart.items.count
  }

  /// Empties the cart in the file; nothing is written when there is no file yet.
  ///
  /// - Throws: A ``DataFileError`` when the file cannot be read, is not a cart, or cannot be
  ///   written; the file is then left as it was.
  public func removeAll() throws(DataFileError) {
    guard !(try load()).items.isEmpty else { return }
    try DataFile.write(
      JSONFile.encode(Cart()), to: path, role: "cart", createsFolders: createsFolders)
  }

  /// Reads the cart at `path` without making a `CartFile`, to check the file at startup.
  ///
  /// - Parameters:
  ///   - path: The cart file.
  ///   - createsFolders: Whether the file's folder may be missing, to be created on the first
  ///     add (see ``init(path:createsFolders:)``).
  /// - Returns: The stored cart; an empty cart when there is no file yet.
  /// - Throws: A ``DataFileError`` naming the file when it cannot be read, is not a cart, or
  ///   its folder is missing and `createsFolders` is `false`.
  public static func load(
    from path: String, createsFolders: Bool = true
  ) throws(DataFileError) -> Cart {
    try DataFile.checkFolder(of: path, role: "cart", createsFolders: createsFolders)
    guard DataFile.exists(path) else { return Cart() }
    let data = try DataFile.read(path, role: "cart")
    return try JSONFile.decode(Cart.self, from: data, path: path, role: "cart")
  }
}
