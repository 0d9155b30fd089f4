import Dispatch
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Opens the editor's URL in the user's browser, as the desktop does: the first program of
/// `BROWSER` (the variable xdg-open and Python's webbrowser read) if set, else `xdg-open`.
enum EditorLauncher {
    /// The program that would open `url`, and its arguments.
    static func command(for url: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> [String] {
        let browser = environment["BROWSER"]?.split(separator: ":").first.map(String.init)?.trimmingCharacters(in: .whitespaces)
        guard let browser, !browser.isEmpty else { return ["xdg-open", url] }
        // BROWSER entries may carry "%s" where the URL goes.
        let words = browser.split(separator: " ").map(String.init)
        return words.contains("%s") ? words.map { $0 == "%s" ? url : $0 } : words + [url]
    }

    /// Starts the browser on `url` and returns without waiting for it; nil on success, else
    /// what went wrong and what to do.
    static func open(_ url: String) -> String? {
        let arguments = command(for: url)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // The node blocks SIGINT and SIGTERM for its sigwait; the browser must not inherit
        // that, and gets a process group of its own, so Ctrl-C on the node leaves it open.
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGINT)
        sigaddset(&defaults, SIGTERM)
        sigaddset(&defaults, SIGPIPE)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))

        // Standard output carries the node's ready lines: the browser's chatter goes nowhere.
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)

        let argv = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let status = posix_spawnp(&pid, arguments[0], &actions, &attributes, argv, environ)
        guard status == 0 else {
            let program = arguments[0]
            let advice =
                program == "xdg-open"
                ? "install xdg-utils, or set BROWSER to your browser"
                : "check the BROWSER variable"
            return "cannot start \(program) (\(String(cString: strerror(status)))); \(advice), or open \(url) yourself"
        }
        // Reaped in the background, so no zombie is left however long the browser runs.
        let child = pid
        Thread.detachNewThread {
            var exit: Int32 = 0
            while waitpid(child, &exit, 0) < 0 && errno == EINTR {}
        }
        return nil
    }
}
