import ArgumentParser
import ToneShaperControl
import ToneShaperFiles
import ToneShaperJack
import ToneShaperModel
import ToneShaperOSC
import ToneShaperParameters
import ToneShaperWire

/// One exit status per kind of failure, the same in every subcommand (the Rendering article,
/// "Errors and exit status"). The values are sysexits(3)'s where one fits, as many Unix tools use them.
enum ExitStatus: Int32 {
    case success = 0
    /// Failed for a reason of its own; for `send`: the node answered with `/error` (the
    /// message was refused, nothing changed).
    case failure = 1
    /// A bad option, argument or value: nothing was done.
    case usage = 64
    /// A document that exists but cannot be used (not JSON, wrong keys or values).
    case badDocument = 65
    /// A document name or file that is not there.
    case notFound = 66
    /// Something the command needs is not there: no JACK server, no node answering,
    /// the OSC port taken by another program.
    case unavailable = 69
    /// The output (a render, a saved document) could not be written.
    case cannotWrite = 73
}

/// A failure the command has already put into words, with its kind.
struct CommandFailure: Error, CustomStringConvertible {
    let status: ExitStatus
    let description: String

    init(_ status: ExitStatus, _ description: String) {
        self.status = status
        self.description = description
    }
}

/// Every error of every subcommand comes out the same way:
///
///     toneshaper render: error: <what is wrong and what to do>
///     Usage: toneshaper render <document> --output <file> ...      (usage errors only)
///     See 'toneshaper render --help' for more.                      (usage errors only)
///
/// and the exit status says which kind of error it was.
enum CommandErrors {
    /// Reports `error` for the subcommand the arguments name, and exits.
    static func exit(with error: Error, arguments: [String]) -> Never {
        let subcommand = ToneShaperCommand.configuration.subcommands.first { command in
            arguments.first { !$0.hasPrefix("-") } == command._commandName
        }
        let name = "toneshaper" + (subcommand.map { " " + $0._commandName } ?? "")
        if let code = error as? ExitCode {
            // Already reported where it happened.
            ToneShaperCommand.exit(withError: code)
        }
        // ArgumentParser's own: help and version requests exit cleanly, with its text.
        if ToneShaperCommand.exitCode(for: error) == .success { ToneShaperCommand.exit(withError: error) }
        let (status, message) = classify(error)
        if status == .usage {
            let usage = ToneShaperCommand.usageString(for: subcommand ?? ToneShaperCommand.self)
            StandardError.line("\(name): error: \(message)")
            StandardError.line("Usage: \(usage.trimmingPrefix("Usage: "))")
            StandardError.line("See '\(name) --help' for more.")
        } else {
            StandardError.line("\(name): error: \(message)")
        }
        ToneShaperCommand.exit(withError: ExitCode(status.rawValue))
    }

    /// The kind and the words for an error from anywhere in the program.
    static func classify(_ error: Error) -> (ExitStatus, String) {
        switch error {
        case let failure as CommandFailure:
            return (failure.status, failure.description)
        case let error as LibraryError:
            switch error {
            case .notFound, .unreadable: return (.notFound, error.description)
            case .invalidDocument: return (.badDocument, error.description)
            case .invalidName, .builtInName, .renameRefused: return (.usage, error.description)
            case .saveFailed: return (.cannotWrite, error.description)
            }
        case let error as DocumentError:
            return (.badDocument, error.description)
        case let error as AudioFileError:
            switch error.kind {
            case .unsupportedFormat: return (.usage, error.description)
            case .cannotCreate, .writeFailed: return (.cannotWrite, error.description)
            case .cannotRead: return (.notFound, error.description)
            }
        case let error as JackNodeError:
            return (.unavailable, error.description)
        case let error as OSCConfigurationError:
            return (error.description.contains(" is in use") ? .unavailable : .usage, error.description)
        case let error as ControlError:
            return (.usage, ParameterOptions.phrase(error))
        case let error as RenderFailure:
            return (.usage, error.description)
        default:
            // ArgumentParser's parse and validation errors (and ValidationError from run())
            // are usage errors; anything else is a plain failure.
            let message = String(ToneShaperCommand.message(for: error).trimmingPrefix("Error: "))
            return (ToneShaperCommand.exitCode(for: error).rawValue == ExitStatus.usage.rawValue ? .usage : .failure, message)
        }
    }
}
