import Foundation
import ProductDetailLive
import Testing

/// The cart kept in a JSON file.
struct CartFileTests {
  let folder: TemporaryDirectory
  let item = CartItem(productID: "yeezy-triple-white", title: "Yeezy Triple White", user: "Richi")

  init() throws {
    folder = try TemporaryDirectory()
  }

  @Test func createsTheFileAndItsFoldersOnTheFirstAdd() async throws {
    let cart = CartFile(path: folder.path("data/ArchitectureKit/cart.json"))

    #expect(try await cart.load() == Cart())
    #expect(try await cart.add(item) == 1)
    #expect(try await cart.add(item) == 2)
    #expect(try await cart.load() == Cart(items: [item, item]))
  }

  @Test func reportsAMissingFolderItMustNotCreate() async throws {
    let path = folder.path("typo/cart.json")
    let cart = CartFile(path: path, createsFolders: false)
    let message =
      "The cart file \(path) cannot be created: the folder \(folder.path("typo")) does not exist."

    let atStartup = #expect(throws: DataFileError.self) {
      try CartFile.load(from: path, createsFolders: false)
    }
    let onAdd = await #expect(throws: DataFileError.self) { try await cart.add(item) }

    #expect(atStartup?.description == message)
    #expect(onAdd?.description == message)
    #expect(!FileManager.default.fileExists(atPath: folder.path("typo")))
  }

  @Test func emptiesTheCartInTheFile() async throws {
    let cart = CartFile(path: folder.path("cart.json"))
    try await cart.removeAll()
    #expect(!FileManager.default.fileExists(atPath: folder.path("cart.json")))

    _ = try await cart.add(item)
    _ = try await cart.add(item)
    try await cart.removeAll()

    #expect(try await cart.load() == Cart())
  }

  @Test func refusesToAddToACartThatWentBadAndLeavesItAlone() async throws {
    let path = folder.path("cart.json")
    let cart = CartFile(path: path)
    _ = try await cart.add(item)
    try "{\"items\": 3}".write(toFile: path, atomically: true, encoding: .utf8)

    let error = await #expect(throws: DataFileError.self) { try await cart.add(item) }

    #expect(
      error?.description
        == "The cart file \(path) is not a valid cart: \"items\" should be a list. "
        + "It was left untouched."
    )
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "{\"items\": 3}")
  }

  @Test(
    arguments: [
      (["XDG_DATA_HOME": "/data", "HOME": "/home/richi"], "/data/ArchitectureKit/cart.json"),
      (["XDG_DATA_HOME": "relative", "HOME": "/home/richi"], CartFileTests.homeDefault),
      (["HOME": "/home/richi"], CartFileTests.homeDefault),
      ([:], nil),
    ]
  )
  func keepsTheCartInTheUserDataDirectory(environment: [String: String], path: String?) {
    #expect(CartFile.defaultPath(environment: environment) == path)
  }

  #if canImport(Darwin)
    static let homeDefault = "/home/richi/Library/Application Support/ArchitectureKit/cart.json"
  #else
    static let homeDefault = "/home/richi/.local/share/ArchitectureKit/cart.json"
  #endif
}
