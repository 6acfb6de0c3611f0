import Testing

/// The `counter` executable, driven by a script on standard input.
@Suite(.timeLimit(.minutes(10)))
struct CounterEndToEndTests {
  @Test func printsEveryCountOfAScript() async throws {
    let run = try await ScriptedRun.run("counter", input: "++-q", home: TemporaryDirectory())

    #expect(run.lines == ["0", "1", "2", "1"])
    #expect(run.errors.isEmpty)
    #expect(run.status == 0)
  }

  @Test func countsWithTheArrowKeys() async throws {
    let run = try await ScriptedRun.run(
      "counter",
      input: "\u{1B}[A\u{1B}[A\u{1B}[B\u{1B}[Bq",
      home: TemporaryDirectory()
    )

    #expect(run.lines == ["0", "1", "2", "1", "0"])
  }

  @Test func hintsAtAnUnknownKeyAndKeepsTheCount() async throws {
    let run = try await ScriptedRun.run("counter", input: "+x+q", home: TemporaryDirectory())

    #expect(run.lines == ["0", "1", "2"])
    #expect(
      run.errors
        == "counter: Unknown key 'x'. Keys: + or ↑ count up · - or ↓ count down · q or Esc quit"
        + " · Ctrl-Z suspend\n"
    )
    #expect(run.status == 0)
  }

  @Test func quitsCleanlyAtTheEndOfInput() async throws {
    let run = try await ScriptedRun.run("counter", input: "+\n+\n", home: TemporaryDirectory())

    #expect(run.lines == ["0", "1", "2"])
    #expect(run.errors.isEmpty)
    #expect(run.status == 0)
  }

  @Test func ignoresTheKeysAfterQuit() async throws {
    let run = try await ScriptedRun.run("counter", input: "-q++", home: TemporaryDirectory())

    #expect(run.lines == ["0", "-1"])
  }

  @Test func helpNamesEveryKeyEscAndCtrlZIncluded() async throws {
    let run = try await ScriptedRun.run(
      "counter", ["--help"], input: "", home: TemporaryDirectory())

    #expect(run.status == 0)
    #expect(run.output.contains("q or Esc quit"))
    #expect(run.output.contains("Ctrl-Z suspend"))
  }

  @Test func skipsTheLineBreaksAndCtrlZOfAScriptSilently() async throws {
    let run = try await ScriptedRun.run(
      "counter",
      input: "+\n\u{1A}+\r\nq",
      home: TemporaryDirectory()
    )

    #expect(run.lines == ["0", "1", "2"])
    #expect(run.errors.isEmpty)
    #expect(run.status == 0)
  }

  @Test(arguments: [
    (["--speed", "2"], "counter: unknown argument '--speed'"),
    (["-h", "--help"], "counter: option --help is given twice"),
  ])
  func rejectsABadCommandLine(arguments: [String], message: String) async throws {
    let run = try await ScriptedRun.run(
      "counter",
      arguments,
      input: "+q",
      home: TemporaryDirectory()
    )

    #expect(run.status == 2)
    #expect(run.output.isEmpty)
    #expect(run.errors == message + "\nTry 'counter --help'.\n")
  }
}
