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
        chosen at start-up (v3, AVX2 and FMA, where the CPU has them; else the baseline). \
        TONESHAPER_KERNEL=baseline|v3|v4 forces a level the CPU runs.
        """,
        subcommands: [RunCommand.self, RenderCommand.self, PresetsCommand.self, SendCommand.self])

    /// Table-declared parameter flags (`--wave square`) become `--set wave=square` first.
    static func main() {
        main(ParameterOptions.rewrite(Array(CommandLine.arguments.dropFirst())))
    }
}
