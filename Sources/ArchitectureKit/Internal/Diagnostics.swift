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
  printToStandardError("[ArchitectureKit] \(message)")
}

/// Writes a line on standard error, whole, without buffering: diagnostics, and printed changes
/// by default.
///
/// - Parameter line: The line, without a line break.
package func printToStandardError(_ line: String) {
  #if canImport(Darwin) || canImport(Glibc) || canImport(Musl)
    var line = line + "\n"
    line.withUTF8 { bytes in
      // Standard error is file descriptor 2; a short write loses only part of a line.
      _ = write(2, bytes.baseAddress, bytes.count)
    }
  #else
    print(line)
  #endif
}
