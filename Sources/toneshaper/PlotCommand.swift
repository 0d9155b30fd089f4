import ArgumentParser
import Foundation
import ToneShaperControl
import ToneShaperFiles

/// `toneshaper plot`: a tone shape as an SVG picture (the Rendering article shows the built-ins so).
struct PlotCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plot",
        abstract: "Draw a tone shape as SVG: v(t) on its fidelity grid, the amplitude scaling, and a few waves of the output.",
        discussion: """
            Examples:
              toneshaper plot siren -o siren.svg
              toneshaper plot my.toneshaper -o my.svg --fidelity 8
            """)

    @Argument(help: ArgumentHelp("A .toneshaper file, or the name of a built-in or library tone shape.", valueName: "document"))
    var document: String

    @OptionGroup(title: "Tone-shape parameters (override the document's)")
    var parameters: ParameterOptions

    @Option(name: [.short, .long], help: ArgumentHelp("The SVG file to write (- for standard output).", valueName: "file"))
    var output: String

    func run() throws {
        do {
            let shape = try parameters.apply(to: DocumentLibrary().load(document))
            let name = shape.name ?? URL(fileURLWithPath: document).deletingPathExtension().lastPathComponent
            let svg = ShapePlot(shape: shape, name: name).svg()
            if output == "-" {
                FileHandle.standardOutput.write(Data(svg.utf8))
            } else {
                try Data(svg.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
            }
        } catch let error as ExitCode {
            throw error
        } catch {
            StandardError.line("toneshaper plot: \(error)")
            throw ExitCode.failure
        }
    }
}
