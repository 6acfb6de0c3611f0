#if canImport(Darwin)
  private import Darwin
#elseif canImport(Glibc)
  private import Glibc
#elseif canImport(Musl)
  private import Musl
#endif

/// Reports a misuse or an unhandled failure that no observer was there to see.
///
/// Runtime problems are reported, never trapped: a line on standard error names the system type
/// and what happened, as TCA's runtime warnings do.
@usableFromInline
func reportUnobserved(_ message: String) {
  #if canImport(Darwin) || canImport(Glibc) || canImport(Musl)
    var line = "[ArchitectureKit] \(message)\n"
    line.withUTF8 { bytes in
      // Standard error is file descriptor 2; a short write loses only part of a diagnostic.
      _ = write(2, bytes.baseAddress, bytes.count)
    }
  #else
    print("[ArchitectureKit] \(message)")
  #endif
}
