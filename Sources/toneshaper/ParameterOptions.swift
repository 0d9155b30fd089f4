import ArgumentParser
import ToneShaperCore

/// The tone-shape parameters as command-line options, derived from the one parameter
/// table (`ParameterTable.all`), like the OSC addresses, the document keys and `/state`.
///
/// ArgumentParser declares options statically, so each table flag (`--wave square`,
/// `--min-frequency=200`) is rewritten before parsing into the repeatable `--set
/// wave=square`, whose help lists every parameter from the table. Either form works.
struct ParameterOptions: ParsableArguments {
    @Option(name: .customLong("set"), help: ArgumentHelp(
        "Override a parameter of the document: NAME=VALUE, or --NAME VALUE (repeatable).",
        discussion: ParameterOptions.tableHelp, valueName: "name=value"))
    var settings: [String] = []

    static var tableHelp: String {
        ParameterTable.all.map { spec in
            let values: String
            switch spec.kind {
            case .real(let range): values = "\(format(range.lowerBound))...\(format(range.upperBound))\(spec.unit.isEmpty ? "" : " " + spec.unit)"
            case .integer(let range): values = "\(range.lowerBound)...\(range.upperBound)"
            case .choice(let names): values = names.joined(separator: ", ")
            case .terms: values = "a count, or nyquist"
            case .flag: values = "1 or 0, true or false"
            }
            return "--\(spec.flag): \(spec.help) (\(values))"
        }.joined(separator: "\n")
    }

    private static func format(_ x: Double) -> String { x == x.rounded() ? String(Int(x)) : String(x) }

    /// The flags the table declares, as they are typed.
    static var flags: Set<String> { Set(ParameterTable.all.map(\.flag)) }

    /// `args` with every `--FLAG VALUE` / `--FLAG=VALUE` of the table turned into
    /// `--set FLAG=VALUE`. Arguments after `--` are left alone.
    static func rewrite(_ args: [String]) -> [String] {
        var result: [String] = []
        var i = 0
        while i < args.count {
            let arg = args[i]
            if arg == "--" { result += args[i...]; break }
            if arg.hasPrefix("--") {
                let body = arg.dropFirst(2)
                let name = String(body.prefix { $0 != "=" })
                if flags.contains(name) {
                    if body.contains("=") {
                        result += ["--set", String(body)]
                    } else if i + 1 < args.count {
                        result += ["--set", "\(name)=\(args[i + 1])"]
                        i += 1
                    } else {
                        result.append(arg)   // let the parser say the value is missing
                    }
                    i += 1
                    continue
                }
            }
            result.append(arg)
            i += 1
        }
        return result
    }

    /// `shape` with the overrides applied, each checked by the table; a refusal names the
    /// option and the problem.
    func apply(to shape: ToneShape) throws -> ToneShape {
        var pairs: [(ParameterSpec, String)] = []
        for setting in settings {
            guard let equals = setting.firstIndex(of: "=") else {
                throw ValidationError("--set \(setting): write NAME=VALUE, for example --set wave=square")
            }
            let name = String(setting[..<equals]), text = String(setting[setting.index(after: equals)...])
            guard let spec = ParameterTable.spec(flag: name) else {
                throw ValidationError("--set: no parameter called \"\(name)\"; the parameters are \(ParameterTable.all.map(\.flag).joined(separator: ", "))")
            }
            pairs.append((spec, text))
        }
        var result = shape
        // Both ends of the range together, so that their order cannot make one refuse.
        let lo = pairs.last { $0.0.id == .minFrequency }, hi = pairs.last { $0.0.id == .maxFrequency }
        if let lo, let hi {
            guard let min = Double(lo.1), let max = Double(hi.1) else {
                throw ValidationError("--min-frequency and --max-frequency take numbers in Hz")
            }
            do { result = try result.settingFrequencyRange(min: min, max: max) } catch { throw ValidationError("--\(error.description)") }
            pairs.removeAll { $0.0.id == .minFrequency || $0.0.id == .maxFrequency }
        }
        for (spec, text) in pairs {
            do { result = try result.setting(spec.id, to: ParameterOptions.value(text, for: spec)) }
            catch { throw ValidationError("--\(spec.flag) \(text): \(error.problem)") }
        }
        return result
    }

    /// Text as the value the parameter's kind expects (numbers as numbers, whole numbers
    /// as integers so that a choice can be given by index).
    static func value(_ text: String, for spec: ParameterSpec) -> ParameterValue {
        switch spec.kind {
        case .real: return Double(text).map(ParameterValue.real) ?? .text(text)
        case .integer, .choice, .terms:
            if let i = Int(text) { return .integer(i) }
            if let d = Double(text) { return .real(d) }
            return .text(text)
        case .flag: return .text(text)
        }
    }
}
