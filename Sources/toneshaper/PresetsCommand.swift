import ArgumentParser

// Placeholder: replaced by the real `presets` command.
struct PresetsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "presets", abstract: "(not yet built)")
    func run() throws { throw ValidationError("'presets' is not built yet") }
}
