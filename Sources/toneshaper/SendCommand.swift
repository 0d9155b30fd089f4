import ArgumentParser

// Placeholder: replaced by the real `send` command.
struct SendCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "send", abstract: "(not yet built)")
    func run() throws { throw ValidationError("'send' is not built yet") }
}
