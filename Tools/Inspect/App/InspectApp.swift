import Foundation
import InspectCore

/// `swift run inspect JOURNAL [--html OUT.html]`: see ``InspectCommand/usage``.
@main
enum InspectApp {
  static func main() {
    let outcome = InspectCommand.run(arguments: Array(CommandLine.arguments.dropFirst()))
    FileHandle.standardOutput.write(Data(outcome.output.utf8))
    FileHandle.standardError.write(Data(outcome.errors.utf8))
    exit(outcome.status)
  }
}
