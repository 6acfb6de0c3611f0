// swift-tools-version: 6.2
import PackageDescription

let package = Package(
  name: "ArchitectureKit",
  platforms: [.iOS(.v17), .macOS(.v14), .tvOS(.v17), .watchOS(.v10)],
  products: [
    .library(name: "ArchitectureKit", targets: ["ArchitectureKit"]),
    .library(name: "ArchitectureKitTestSupport", targets: ["ArchitectureKitTestSupport"]),
    .executable(name: "counter", targets: ["CounterApp"]),
    .executable(name: "pdp", targets: ["ProductDetailApp"]),
    .executable(name: "shop", targets: ["ShopApp"]),
    .executable(name: "inspect", targets: ["InspectApp"]),
  ],
  dependencies: [],
  targets: [
    // Reader, Future, Result extensions and AsyncResult; re-exported by ArchitectureKit.
    .target(name: "FunctionalCore"),
    .target(
      name: "ArchitectureKit",
      dependencies: ["FunctionalCore"],
      // The runtime's map for contributors sits beside the runtime's code.
      exclude: ["Runtime/README.md"]
    ),
    .target(name: "ArchitectureKitTestSupport", dependencies: ["ArchitectureKit"]),

    // Test doubles every test target shares: gates, recorders, a seeded generator.
    .target(name: "TestDoubles", dependencies: ["FunctionalCore"], path: "Tests/TestDoubles"),

    .testTarget(name: "FunctionalCoreTests", dependencies: ["FunctionalCore", "TestDoubles"]),
    .testTarget(
      name: "ArchitectureKitTests",
      dependencies: ["ArchitectureKit", "ArchitectureKitTestSupport", "TestDoubles"]
    ),
    .testTarget(
      name: "ArchitectureKitTestSupportTests",
      dependencies: ["ArchitectureKitTestSupport", "TestDoubles"]
    ),

    // The samples: feature logic in libraries, terminal front ends as executables, so
    // `swift build` keeps them compiling.
    .target(name: "SampleTerminal", path: "Sample/Terminal"),
    .target(
      name: "CounterFeature",
      dependencies: ["ArchitectureKit"],
      path: "Sample/Counter/Feature"
    ),
    .executableTarget(
      name: "CounterApp",
      dependencies: ["ArchitectureKit", "CounterFeature", "SampleTerminal"],
      path: "Sample/Counter/App"
    ),
    // The product page's pure feature (what teaches the library), then its live dependencies
    // (files, catalog, clock), then the app that joins them.
    .target(
      name: "ProductDetailFeature",
      dependencies: ["ArchitectureKit"],
      path: "Sample/ProductDetail/Feature"
    ),
    .target(
      name: "ProductDetailLive",
      dependencies: ["ArchitectureKit", "ProductDetailFeature"],
      path: "Sample/ProductDetail/Live",
      resources: [.copy("Resources/catalog.json")]
    ),
    .executableTarget(
      name: "ProductDetailApp",
      dependencies: [
        "ArchitectureKit", "ProductDetailFeature", "ProductDetailLive", "SampleTerminal",
      ],
      path: "Sample/ProductDetail/App"
    ),
    // The shop: features made of features, the product page among them, unchanged; its live
    // API reads the product page's catalog, so both samples sell the same products.
    .target(
      name: "ShopFeature",
      dependencies: ["ArchitectureKit", "ProductDetailFeature"],
      path: "Sample/Shop/Feature"
    ),
    .target(
      name: "ShopLive",
      dependencies: [
        "ArchitectureKit", "ProductDetailFeature", "ProductDetailLive", "ShopFeature",
      ],
      path: "Sample/Shop/Live"
    ),
    .executableTarget(
      name: "ShopApp",
      dependencies: [
        "ArchitectureKit", "ProductDetailFeature", "ProductDetailLive", "ShopFeature", "ShopLive",
        "SampleTerminal",
      ],
      path: "Sample/Shop/App"
    ),
    .testTarget(
      name: "SampleTests",
      dependencies: [
        "CounterFeature", "ProductDetailFeature", "ProductDetailLive", "ShopFeature", "ShopLive",
        "SampleTerminal", "ArchitectureKitTestSupport",
        // The samples' journals are read back as `inspect` reads them.
        "InspectCore",
      ]
    ),

    // The journal inspector: reading and rendering in a library its tests call, the command
    // line in a thin executable. Foundation only, and nothing of the library depends on it.
    .target(name: "InspectCore", path: "Tools/Inspect/Core"),
    .executableTarget(name: "InspectApp", dependencies: ["InspectCore"], path: "Tools/Inspect/App"),
    // The fixtures are journals and golden pages, read from the source tree, not resources.
    .testTarget(name: "InspectCoreTests", dependencies: ["InspectCore"], exclude: ["Fixtures"]),
  ]
)

// The same language settings for every target, so no module drifts from the house rules.
for target in package.targets {
  target.swiftSettings =
    (target.swiftSettings ?? []) + [
      // Existential types are spelled `any P`, so their cost is visible.
      .enableUpcomingFeature("ExistentialAny"),
      // An `import` leaks nothing into a module's public interface unless it says `public import`.
      .enableUpcomingFeature("InternalImportsByDefault"),
      // A member is visible only where its defining module is imported.
      .enableUpcomingFeature("MemberImportVisibility"),
      // Async functions run on their caller's actor unless marked `@concurrent`.
      .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
      // Conformances of isolated types are isolated too, instead of silently nonisolated.
      .enableUpcomingFeature("InferIsolatedConformances"),
    ]
}
