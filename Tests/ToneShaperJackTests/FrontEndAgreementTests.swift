import Foundation
import Testing
import ToneShaperCore
import ToneShaperWire

@testable import ToneShaperOSC

/// The parameter table is the one source of every check: for every parameter the same
/// out-of-range value is refused by a document, by the command line and over OSC, each
/// naming the parameter in its own words (document key, `--option`, OSC address).
@Suite struct FrontEndAgreement {
    /// A value outside each parameter's range, as a document, a command line and OSC say it.
    static func outOfRange(_ spec: ParameterSpec) -> (json: String, text: String, osc: OSCValue) {
        switch spec.kind {
        case .real(let range):
            let v = range.upperBound * 2 + 1
            return (String(v), String(v), .double(v))
        case .integer(let range): return (String(range.upperBound + 1), String(range.upperBound + 1), .int32(Int32(range.upperBound + 1)))
        case .choice: return ("\"Wobble\"", "Wobble", .string("Wobble"))
        case .terms: return ("0", "0", .int32(0))
        case .flag: return ("2", "2", .int32(2))
        }
    }

    @Test(arguments: ParameterTable.all.map(\.id))
    func everyFrontEndRefusesTheSameValueInItsOwnWords(_ id: ParameterID) throws {
        let spec = ParameterTable.spec(id)
        let bad = Self.outOfRange(spec)

        // A document.
        var object = #"{"points":[[0,200],[1,300]],"duration":1,"minFrequency":100,"maxFrequency":400"#
        object = object.replacingOccurrences(of: #""\#(spec.documentKey)":[0-9.]+,?"#, with: "", options: .regularExpression)
        if object.hasSuffix(",") { object.removeLast() }
        object += #","\#(spec.documentKey)":\#(bad.json)}"#
        var documentError: DocumentError?
        do { _ = try ToneShapeDocument.decode(object, source: "doc") } catch { documentError = error }
        let refusal = try #require(documentError, "the document accepted \(spec.documentKey) = \(bad.json)")
        #expect(refusal.key == spec.documentKey, "\(refusal)")

        // The command line, through the real executable.
        let cli = try Self.runToneshaper(["render", "siren", "-o", "/dev/null", "--set", "\(spec.flag)=\(bad.text)"])
        #expect(cli.status != 0)
        #expect(cli.stderr.contains("--\(spec.flag):"), "\(cli.stderr)")

        // OSC, through the router.
        let controller = EngineController(shape: .defaultShape, sampleRate: 48_000)
        let router = OSCCommandRouter(
            space: OSCAddressSpace(prefix: "/toneshaper"), controller: controller,
            services: OSCHostServices(), maximumStringLength: 1024)
        let address = "/toneshaper/" + spec.oscPath
        guard case .refused(_, let reason) = router.handle(path: address, arguments: [bad.osc], timeTag: .immediate) else {
            Issue.record("OSC accepted \(address) \(bad.osc)")
            return
        }
        #expect(reason.hasPrefix(address + ":"), "\(reason)")
        #expect(controller.shape == ToneShape.defaultShape)
    }

    static func runToneshaper(_ arguments: [String]) throws -> (status: Int32, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ExternalTools.toneshaperBinary)
        process.arguments = arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let data = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
