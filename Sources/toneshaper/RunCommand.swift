import ArgumentParser

// Placeholder: replaced by the real `run` command.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "run", abstract: "(not yet built)")
    func run() throws { throw ValidationError("'run' is not built yet") }
}
