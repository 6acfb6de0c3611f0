// Users write only `import ArchitectureKit`; FunctionalCore has no product of its own.
@_exported public import FunctionalCore
