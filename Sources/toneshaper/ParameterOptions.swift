import ArgumentParser
import ToneShaperControl
import ToneShaperModel
import ToneShaperParameters

/// The tone-shape parameters as command-line options, derived from the one parameter
/// table (`ParameterTable.all`), like the OSC addresses, the document keys and `/state`.
///
/// ArgumentParser declares options statically, so each table flag (`--wave square`,
/// `--min-frequency=200`) is rewritten before parsing into the repeatable `--set
/// wave=square`, whose help lists every parameter from the table. Either form works.
struct ParameterOptions: ParsableArguments {
    @Option(
        name: .customLong("set"),
        help: ArgumentHelp(
            "Override a parameter of the document: NAME=VALUE, or --NAME VALUE (repeatable).",
            discussion: ParameterOptions.tableHelp, valueName: "name=value"))
    var settings: [String] = []

    static var tableHelp: String {
        ParameterTable.all.map { spec in "--\(spec.flag): \(spec.help) (\(spec.kind.describeValues(unit: spec.unit)))" }
            .joined(separator: "\n")
    }

    /// What may follow an on/off option as its value.
    static let flagWords: Set<String> = ["0", "1", "true", "false", "on", "off", "yes", "no"]

    /// The flags the table declares, as they are typed.
    static var flags: Set<String> { Set(ParameterTable.all.map(\.flag)) }

    /// `args` with every `--FLAG VALUE` / `--FLAG=VALUE` of the table turned into
    /// `--set FLAG=VALUE`. Arguments after `--` are left alone.
    static func rewrite(_ args: [String]) -> [String] {
        var result: [String] = []
        var i = 0
        while i < args.count {
            let arg = args[i]
            if arg == "--" {
                result += args[i...]
                break
            }
            if arg.hasPrefix("--") {
                let body = arg.dropFirst(2)
                let name = String(body.prefix { $0 != "=" })
                if flags.contains(name) {
                    if body.contains("=") {
                        result += ["--set", String(body)]
                    } else if ParameterTable.spec(flag: name).map({
                        if case .flag = $0.kind { return true }
                        return false
                    }) == true,
                        !(i + 1 < args.count && flagWords.contains(args[i + 1].lowercased()))
                    {
                        result += ["--set", "\(name)=1"]  // a bare on/off option (--instrument) means on
                    } else if i + 1 < args.count {
                        result += ["--set", "\(name)=\(args[i + 1])"]
                        i += 1
                    } else {
                        result.append(arg)  // let the parser say the value is missing
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

    /// `shape` with the overrides applied as one change, each checked by the parameter
    /// table; a refusal names the option and the problem.
    func apply(to shape: ToneShape) throws -> ToneShape {
        var values: [(ParameterID, ParameterValue)] = []
        for setting in settings {
            guard let equals = setting.firstIndex(of: "=") else {
                throw ValidationError("--set \(setting): write NAME=VALUE, for example --set wave=square")
            }
            let name = String(setting[..<equals])
            let text = String(setting[setting.index(after: equals)...])
            guard let spec = ParameterTable.spec(flag: name) else {
                throw ValidationError(
                    "--set: no parameter called \"\(name)\"; the parameters are \(ParameterTable.all.map(\.flag).joined(separator: ", "))")
            }
            values.append((spec.id, .parsing(text)))
        }
        do {
            return try shape.setting(values)
        } catch {
            throw ValidationError(ParameterOptions.phrase(error))
        }
    }

    /// The core's error in command-line words: parameters by their option.
    static func phrase(_ error: ControlError) -> String {
        error.phrased(
            naming: { subject in
                switch subject {
                case .parameter(let id): return "--" + ParameterTable.spec(id).flag
                case .command(.frequencyRange): return "--min-frequency/--max-frequency"
                default: return ControlError.neutralName(subject)
                }
            },
            remedy: { remedy in
                switch remedy {
                case .setRangeTogether: return "give --min-frequency and --max-frequency together"
                default: return ControlError.neutralRemedy(remedy)
                }
            })
    }
}
