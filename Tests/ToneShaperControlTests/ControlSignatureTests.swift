import Testing
import ToneShaperParameters

@testable import ToneShaperControl

/// The signatures the core declares are the ones it keeps: a value just beyond either end
/// of an argument's declared range is refused at every address, and a wrong count of
/// arguments is refused before any is read. OSCQuery, the help and the reference read these
/// signatures, so they cannot promise what the node refuses.
@Suite struct ControlSignatureTests {
    /// A value each argument takes on its own (the low end of its range, a known name).
    static func plain(_ argument: ControlArgument) -> ParameterValue {
        switch argument.type {
        case .real(let range): return .real(range.lowerBound.isFinite ? range.lowerBound : range.upperBound)
        case .integer(let range): return .integer(range.lowerBound)
        case .choice(let names): return .text(names[0])
        case .countOrNyquist: return .text("nyquist")
        case .flag: return .integer(1)
        case .text: return .text("frequency/max")
        }
    }

    @Test(arguments: ControlAddress.all.map(\.path))
    func valuesBeyondTheDeclaredRangeAreRefused(_ path: String) throws {
        let address = try #require(ControlAddress.named(path))
        let arguments = address.signature.arguments
        for (k, argument) in arguments.enumerated() {
            let bounds: [Double]
            switch argument.type {
            case .real(let range): bounds = [range.lowerBound, range.upperBound]
            case .integer(let range): bounds = [Double(range.lowerBound), Double(range.upperBound)]
            default: continue
            }
            for beyond in [bounds[0] - 1, bounds[1] + 1] where beyond.isFinite {
                var message = arguments.map(Self.plain)
                message[k] = .real(beyond)
                let surface = ControlSurface(controller: EngineController(shape: .defaultShape, sampleRate: 48_000))
                #expect(throws: ControlError.self, "\(path) took \(argument.name) = \(beyond)") { try surface.perform(address, message) }
            }
        }
    }

    @Test(arguments: ControlAddress.all.map(\.path))
    func aWrongCountIsRefusedByTheSignature(_ path: String) throws {
        let address = try #require(ControlAddress.named(path))
        let signature = address.signature
        let plain = signature.arguments.map(Self.plain)
        let wrong = signature.arity == .exact && !plain.isEmpty ? Array(plain.dropLast()) : plain + [plain.first ?? .integer(1)]
        do {
            _ = try address.request(wrong)
            Issue.record("\(path) took \(wrong.count) arguments")
        } catch {
            #expect(error.problem.hasPrefix("expects "), "\(error)")
            #expect(error.subject == address.subject)
        }
    }

    @Test func theDecibelFaderStopsAt120ButQuieterLevelsAreTaken() throws {
        let address = try #require(ControlAddress.named("amplitude/db"))
        #expect(address.signature.arguments[0].numericRange == -120...0)
        let surface = ControlSurface(controller: EngineController(shape: .defaultShape, sampleRate: 48_000))
        #expect(try surface.perform(address, [.real(-1000)]) == .done(notes: []))
    }
}
