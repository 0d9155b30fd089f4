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
        """,
        version: ToneShaperVersion.string,
        subcommands: [RunCommand.self, RenderCommand.self, PresetsCommand.self, SendCommand.self])

    /// Table-declared parameter flags (`--wave square`) become `--set wave=square` first.
    static func main() {
        var arguments = Array(CommandLine.arguments.dropFirst())
        // Session managers start a client by its executable name alone (X-NSM-Exec):
        // under one, no subcommand means the live node.
        if arguments.isEmpty && RunCommand.sessionManagerURL != nil { arguments = ["run"] }
        main(ParameterOptions.rewrite(arguments))
    }
}
