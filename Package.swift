// swift-tools-version: 6.2
import PackageDescription

let package = Package(
  name: "ArchitectureKit",
  platforms: [.iOS(.v17), .macOS(.v14), .tvOS(.v17), .watchOS(.v10)],
  products: [
    .library(name: "ArchitectureKit", targets: ["ArchitectureKit"]),
    .library(name: "ArchitectureKitTestSupport", targets: ["ArchitectureKitTestSupport"]),
  ],
  dependencies: [],
  targets: [
    // Reader, Future, Result extensions and AsyncResult; re-exported by ArchitectureKit.
    .target(name: "FunctionalCore"),
    .target(name: "ArchitectureKit", dependencies: ["FunctionalCore"]),
    .target(name: "ArchitectureKitTestSupport", dependencies: ["ArchitectureKit"]),

    .testTarget(name: "FunctionalCoreTests", dependencies: ["FunctionalCore"]),
    .testTarget(
      name: "ArchitectureKitTests",
      dependencies: ["ArchitectureKit", "ArchitectureKitTestSupport"]
    ),
    .testTarget(
      name: "ArchitectureKitTestSupportTests",
      dependencies: ["ArchitectureKitTestSupport"]
    ),
  ]
)

// The same language settings for every target, so no module drifts from the house rules.
for target in package.targets {
  target.swiftSettings = (target.swiftSettings ?? []) + [
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
