import Foundation
import Testing
import ToneShaperParameters

/// A third-party loader: Qtractor's plugin scanner (Debian's qtractor package) opens the
/// CLAP file with its own copy of the CLAP headers, so it checks the plugin's declarations
/// (entry, factory, descriptors, plugin, audio-ports, note-ports, params, state) against
/// the specification's, which the plugin's static assertions cannot.
@Suite struct CLAPQtractorTests {
    static let scanners = ["/usr/lib/x86_64-linux-gnu/qtractor/qtractor_plugin_scan", "/usr/lib/aarch64-linux-gnu/qtractor/qtractor_plugin_scan"]

    @Test func qtractorsScannerFindsBothPluginsWithTheirPorts() throws {
        guard let scanner = Self.scanners.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            Issue.record("qtractor_plugin_scan is not installed (Debian: apt-get install qtractor; Scripts/setup.sh installs it)")
            return
        }
        try CLAPTools.prepare()
        let directory = try CLAPTools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let request = directory.appendingPathComponent("request")
        try Data("CLAP:\(CLAPTools.plugin.path)\n".utf8).write(to: request)
        let result = try CLAPTools.run("/bin/sh", ["-c", "QT_QPA_PLATFORM=offscreen '\(scanner)' < '\(request.path)'"], timeout: 60)
        #expect(result.status == 0 && !result.signalled, "\(result.output)")
        // Type, name, audio ins:outs, MIDI ins:outs, controls ins:outs, flags, file, index.
        let lines = result.stdout.split(separator: "\n").map { $0.split(separator: "|").prefix(8).joined(separator: "|") }
        let path = CLAPTools.plugin.path
        let controls = ParameterTable.all.count
        #expect(
            lines == [
                "CLAP|ToneShaper|0:1|1:0|\(controls):0|GUI,EXT,RT|\(path)|0", "CLAP|ToneShaper (stereo)|0:2|1:0|\(controls):0|GUI,EXT,RT|\(path)|1",
            ],
            "\(result.output)")
    }
}
