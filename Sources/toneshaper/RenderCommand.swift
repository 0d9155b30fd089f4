import ArgumentParser

// Placeholder: replaced by the real `render` command.
struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "render", abstract: "(not yet built)")
    func run() throws { throw ValidationError("'render' is not built yet") }
}
