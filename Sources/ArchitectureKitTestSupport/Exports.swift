// Test targets write only `import ArchitectureKitTestSupport`.
@_exported public import ArchitectureKit
