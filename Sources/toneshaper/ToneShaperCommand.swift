import ArgumentParser

@main
struct ToneShaperCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "toneshaper",
        abstract: "Play tone shapes in a JACK graph, control them over OSC, render them to files.",
        discussion: """
            A tone shape is a drawn curve of instantaneous frequency over one cycle, integrated \
            into a phase and played through a periodic wave. Documents are JSON (.toneshaper, \
            as written by the original ToneShaper app); built-in shapes are loaded by name \
            (see `toneshaper presets`).

            The render kernel is built for several x86-64 levels and the one for this CPU is \
            chosen at start-up (the highest it runs: v4 with AVX-512, else v3 with AVX2 and FMA, \
            else the baseline). \
            TONESHAPER_KERNEL=baseline|v3|v4 forces a level the CPU runs.
            """,
        version: ToneShaperVersion.string,
        subcommands: [RunCommand.self, RenderCommand.self, PlotCommand.self, PresetsCommand.self, SendCommand.self])

    /// Table-declared parameter flags (`--wave square`) become `--set wave=square` first.
    /// Every error is reported in one style, with one exit status per kind
    /// (`CommandErrors`).
    static func main() {
        var given = Array(CommandLine.arguments.dropFirst())
        // Session managers start a client by its executable name alone (X-NSM-Exec):
        // under one, no subcommand means the live node.
        if given.isEmpty && RunCommand.sessionManagerURL != nil { given = ["run"] }
        let arguments = ParameterOptions.rewrite(joiningNegativeValues(given))
        do {
            var command = try parseAsRoot(arguments)
            try command.run()
        } catch {
            CommandErrors.exit(with: error, arguments: arguments)
        }
    }

    /// `--seconds -1` becomes `--seconds=-1`: otherwise the parser takes "-1" for an option
    /// and says the value is missing, where the user gave a value that is out of range.
    /// Only a long option without "=" followed by a negative number is joined.
    static func joiningNegativeValues(_ arguments: [String]) -> [String] {
        let flags: Set = ["--paused", "--stereo", "--no-osc", "--no-auto-connect", "--sync", "--tcp", "--help"]
        var result: [String] = []
        for argument in arguments {
            if let previous = result.last, previous.hasPrefix("--"), previous.count > 2, !previous.contains("="),
                !flags.contains(previous),
                argument.hasPrefix("-"), argument.count > 1, Double(argument) != nil
            {
                result[result.count - 1] = previous + "=" + argument
            } else {
                result.append(argument)
            }
        }
        return result
    }
}
