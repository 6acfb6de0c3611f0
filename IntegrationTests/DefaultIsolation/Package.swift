// swift-tools-version: 6.2
import PackageDescription

// A stand-in for an app made from Xcode 26's template: its targets isolate unannotated code to
// the main actor and enable the "approachable concurrency" features. The features in `App` use
// every feedback form and compose two children, so the library's generic requirements meet
// these settings at every entry point.
let package = Package(
  name: "DefaultIsolation",
  platforms: [.iOS(.v17), .macOS(.v14), .tvOS(.v17), .watchOS(.v10)],
  // Named, so that `package: "ArchitectureKit"` holds whatever the clone's folder is called.
  dependencies: [.package(name: "ArchitectureKit", path: "../..")],
  targets: [
    .target(
      name: "App",
      dependencies: [.product(name: "ArchitectureKit", package: "ArchitectureKit")]
    ),
    .testTarget(
      name: "AppTests",
      dependencies: [
        "App", .product(name: "ArchitectureKitTestSupport", package: "ArchitectureKit"),
      ]
    ),
  ]
)

// Xcode 26's defaults for a new app target, applied to the tests too, as the strictest case.
for target in package.targets {
  target.swiftSettings =
    (target.swiftSettings ?? []) + [
      // SWIFT_DEFAULT_ACTOR_ISOLATION = MainActor: unannotated declarations are @MainActor.
      .defaultIsolation(MainActor.self),
      // SWIFT_APPROACHABLE_CONCURRENCY = YES adds these two to the Swift 6 language mode.
      .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
      .enableUpcomingFeature("InferIsolatedConformances"),
    ]
}
