import Foundation
import JackTimeline
import Testing
import ToneShaperTestSupport

#if canImport(Glibc)
    import Glibc
#endif

extension WithJackServer {
    /// The CLAP plugin in a running Qtractor (Debian's qtractor), on a private dummy JACK
    /// server, heard through JACK by the tests' own recorder.
    ///
    /// The session file is made here from a template of what Qtractor 0.9.31 saves: the
    /// stereo plugin is the Master bus's output insert (it has no audio input and needs no
    /// MIDI: a drone that follows the transport), and its parameters are set only through its
    /// state, as Qtractor gives a CLAP plugin its saved values (the `state` config, the
    /// plugin's own state compressed as Qt's qCompress and in base64). JACK's transport is
    /// driven from outside with `jack_transport`; Qtractor, in its Full transport mode,
    /// follows it and hands its position to the plugin (clap_event_transport), which follows
    /// it as the LV2 plugin follows time:Position: silent while stopped, and from the place in
    /// the cycle the transport's frame gives when it rolls or is located.
    ///
    /// Qtractor starts its audio engine only together with its MIDI engine, which opens the
    /// ALSA sequencer; where there is none (no /dev/snd/seq: containers, CI) it is given the
    /// empty stand-in of Tests/QtractorSession/sequencer_standin.c, and everything heard
    /// still goes through Qtractor's own JACK client, buses and CLAP host.
    @Suite struct CLAPQtractorSessionTests {
        static var available: Bool {
            PrivateJackServer.available && TestTools.have("qtractor", "jack_transport", "cc")
        }

        /// The shape the state holds: every value differs from the default shape's (110...440
        /// Hz, amplitude 0.25, a sine-scaled level, transport off): a 2 s cycle, its first
        /// half at 300 Hz and its second at 600 Hz, at a steady 0.4, following the transport;
        /// with `beats`, a cycle of that many beats of the host's tempo instead.
        static let lowHz = 300.0
        static let highHz = 600.0
        static let amplitude = 0.4
        static func document(beats: Int = 0) -> String {
            """
            {
              "name": "qtractor-session",
              "duration": 2,
              "minFrequency": 300,
              "maxFrequency": 600,
              "componentType": "Sine",
              "scaleType": "None",
              "echoOffsetTimeSeconds": 0,
              "echoVolume": 1,
              "fidelity": 2000,
              "amplitude": 0.4,
              "transport": true,
              "beats": \(beats),
              "points": [[0, 300], [0.999, 300], [1, 600], [2, 600]]
            }
            """
        }

        /// Qtractor loads the session, the plugin takes its state, and through JACK: silence
        /// while the transport stands (located 1.5 s into the cycle); from that place in the
        /// cycle when it rolls (600 Hz, then 300 Hz once the cycle wraps); a locate while
        /// rolling (to 0.25 s) moves the cycle there (300 Hz where it would have gone on at
        /// 600 Hz); silence once it stops. Every window is judged against the transport
        /// position JACK gave in its period, at the level the state set. Then Qtractor saves
        /// the session (the plugin's state as the plugin writes it, compressed by Qtractor),
        /// starts again on the file it saved, and plays the same.
        @Test(.enabled(if: available, "needs qtractor, jack_transport and cc"))
        func qtractorPlaysTheStateAndFollowsJackTransport() async throws {
            try CLAPTools.prepare()
            let rig = try QtractorRig(document: Self.document())
            defer { rig.stop() }
            try await Self.withRecorder(rig) { recorder in
                try recorder.connect([try rig.waitForMasterOutput()])
                let first = try await Self.take(rig, recorder, "the session as made")
                print("Qtractor session: \(first) windows judged against JACK's transport position")

                let saved = try rig.saveSession()
                #expect(saved.contains("<plugin type=\"CLAP\">") && saved.contains("<config key=\"state\">"), "\(saved)")
                // Qtractor saves the parameters as it read them from the plugin: the state's values
                // (its attributes in either order: Qt writes them in its hash's order).
                let params = saved.split(separator: "\n").filter { $0.contains("<param ") }
                for (name, value) in [("Min frequency", "300"), ("Max frequency", "600"), ("Amplitude", "0.4"), ("Transport", "1"), ("Scale", "0")] {
                    #expect(
                        params.contains { $0.contains("name=\"\(name)\"") && $0.hasSuffix(">\(value)</param>") },
                        "\(name) is not \(value) in\n\(params.joined(separator: "\n"))")
                }
                try rig.restartQtractor()
                try recorder.connect([try rig.waitForMasterOutput()])
                let second = try await Self.take(rig, recorder, "the session Qtractor saved")
                print("Qtractor session saved and opened again: \(second) windows judged")
            }

            let log = rig.log
            #expect(
                log.components(separatedBy: "document loaded").count == 3, "the plugin did not say twice it loaded the state:\n\(log.suffix(3000))")
            #expect(!log.contains("clap_log: Error"), "the plugin logged an error:\n\(log.suffix(3000))")
        }

        /// With `beats` set, the cycle lasts that many beats of Qtractor's tempo (5 beats at its
        /// 120 bpm: 2.5 s), and its place comes from Qtractor's bars and beats, bar 1 beat 1 at
        /// the cycle's start: at a steady tempo, the transport's frame modulo 2.5 s again. (A
        /// bar's number read from the host's bar_number put the cycle a bar, 4 beats, late:
        /// Qtractor numbers bars from 1.)
        @Test(.enabled(if: available, "needs qtractor, jack_transport and cc"))
        func qtractorsBarsAndBeatsPlaceACycleOfBeats() async throws {
            try CLAPTools.prepare()
            let rig = try QtractorRig(document: Self.document(beats: 5))
            defer { rig.stop() }
            try await Self.withRecorder(rig) { recorder in
                try recorder.connect([try rig.waitForMasterOutput()])
                let judged = try await Self.take(rig, recorder, "a cycle of 5 beats", cycleSeconds: 2.5)
                print("Qtractor session, a cycle of 5 beats: \(judged) windows judged")
            }
            #expect(!rig.log.contains("clap_log: Error"), "the plugin logged an error:\n\(rig.log.suffix(3000))")
        }

        /// The tests' recorder on the rig's server, for `body` only: its JACK client is closed
        /// before the rig stops the server, which then ends cleanly (a server killed with a
        /// client still open leaves its place in JACK's registry of servers taken).
        static func withRecorder(_ rig: QtractorRig, _ body: (TimelineRecorder) async throws -> Void) async throws {
            try await withRecorderResult(rig, body)
        }

        static func withRecorderResult<T>(_ rig: QtractorRig, _ body: (TimelineRecorder) async throws -> T) async throws -> T {
            let recorder = try TimelineRecorder(serverName: rig.serverName, name: "qtrrec", channels: 1, seconds: 30)
            let result = try await body(recorder)
            withExtendedLifetime(recorder) {}
            return result
        }

        /// One take: the transport located into the cycle's second half while it stands,
        /// rolled, located into the first half while rolling, stopped; judged (``judge``).
        static func take(_ rig: QtractorRig, _ recorder: TimelineRecorder, _ what: String, cycleSeconds: Double = 2) async throws -> Int {
            let rate = recorder.rate
            let cycle = Int(cycleSeconds * rate)
            let located = 3 * cycle / 4  // the 600 Hz half, 0.5 s before the cycle wraps
            let relocated = cycle / 8  // the 300 Hz half, 0.75 s before its end
            return try await retryingOnBusyHost("Qtractor, \(what): the plugin on JACK transport") { _ in
                try rig.transport("stop")
                try rig.transport("locate \(located)")
                // Qtractor follows the stopped transport to its place in its next periods:
                // once it is heard silent there (it stopped, if it rolled), the take starts.
                try await settled(recorder, at: located)
                _ = try await recorder.start()
                try await recorder.wait(untilRecorded: Int(0.5 * rate))
                try rig.transport("play")
                guard await eventually(timeout: 60, { recorder.transportRolling }) else { throw CLAPTestError("jack_transport did not roll") }
                try await recorder.wait(untilRecorded: recorder.framesRecorded + Int(1.5 * rate))
                try rig.transport("locate \(relocated)")
                try await recorder.wait(untilRecorded: recorder.framesRecorded + Int(1.0 * rate))
                try rig.transport("stop")
                guard await eventually(timeout: 60, { !recorder.transportRolling }) else { throw CLAPTestError("jack_transport did not stop") }
                let recording = try await recorder.finish(atFrame: recorder.frameNow &+ UInt32(1.0 * rate))
                return try judge(recording, cycle: cycle, relocated: relocated)
            }
        }

        /// The recording against the transport: silent while it stood, each clean window's
        /// pitch and level those of the cycle's half the transport position gives. Returns how
        /// many windows were judged; too few (periods lost) is ``HostTooBusy``.
        static func judge(_ recording: TimelineRecording, cycle: Int, relocated: Int) throws -> Int {
            let samples = recording.samples
            let rate = recording.sampleRate
            let period = recording.blocks.first?.count ?? 1024
            // A 5 ms fade (240 samples) at each change, and Qtractor takes JACK's transport in
            // the period it sees it, or the next.
            let edge = 240 + 4 * period
            // JACK's transport stands for a period or two each time it starts or is located
            // (its Starting state, while Qtractor syncs): one span from the first rolling
            // period to the last, the standing periods inside it a jump of the position.
            let rolled = recording.transportStretches(rolling: true)
            guard let firstRolled = rolled.first, let lastRolled = rolled.last else {
                throw CLAPTestError("the transport never rolled in the recording")
            }
            let rolling = firstRolled.lowerBound..<lastRolled.upperBound
            let standing = zip(rolled, rolled.dropFirst()).map { $0.upperBound..<$1.lowerBound }
            #expect(standing.allSatisfy { $0.count <= 4 * period }, "the transport stood inside its span: \(rolled)")
            // Qtractor follows JACK's transport a little late: in the runs here it started one
            // period after it and stopped 1,800 to 10,500 frames (35 to 220 ms) after it. So
            // the sound starts and ends within half a second of JACK's transport, never before
            // it, and the plugin is silent on either side.
            let follow = Int(0.5 * rate)
            let firstSound = samples.firstIndex { $0 != 0 } ?? samples.count
            let lastSound = samples.lastIndex { $0 != 0 } ?? 0
            let (startDelay, stopDelay) = (firstSound - rolling.lowerBound, lastSound + 1 - rolling.upperBound)
            print("Qtractor session: sound from \(startDelay) to \(stopDelay) samples after JACK's transport rolled and stopped")
            #expect(startDelay >= -edge && startDelay <= follow, "sound from \(startDelay) samples after the transport rolled")
            #expect(stopDelay >= -edge && stopDelay <= follow, "sound to \(stopDelay) samples after the transport stopped")
            let before = 0..<max(0, rolling.lowerBound - edge)
            let after = min(samples.count, rolling.upperBound + follow)..<samples.count
            #expect(before.count > 10_000 && recording.trustedPeak(in: before) == 0, "sound while the transport stood")
            #expect(after.count > 10_000 && recording.trustedPeak(in: after) == 0, "sound once the transport stopped")

            // The transport position of every sample that rolled, from its period's stamp, and
            // where it jumped: a rolling period not where the previous one (JACK's frames
            // later) left it.
            var position = [Int?](repeating: nil, count: samples.count)
            var jumps: [Int] = []
            var previous: TimelineRecorder.Block?
            for block in recording.blocks where block.rolling {
                for offset in 0..<block.count { position[block.index + offset] = Int(block.transportFrame) + offset }
                if let previous, block.transportFrame != previous.transportFrame &+ (block.frame &- previous.frame) { jumps.append(block.index) }
                previous = block
            }
            let locate = jumps.first { position[$0].map { $0 >= relocated && $0 < relocated + 4 * period } ?? false }
            let stamps = recording.blocks.map { "\($0.index):\($0.rolling ? "R" : "S")\($0.transportFrame)" }
            #expect(locate != nil, "no jump of the transport to frame \(relocated): jumps at \(jumps); blocks \(stamps)")

            let half = cycle / 2
            let window = Int(0.1 * rate)
            // Fade out and in (480 samples) after a jump, with Qtractor's period to see it.
            let afterJump = 480 + 4 * period
            var wrong: [String] = []
            var counts = (located: 0, wrapped: 0, relocated: 0)
            let judged = (max(rolling.lowerBound, firstSound) + edge)..<max(max(rolling.lowerBound, firstSound) + edge, rolling.upperBound - edge)
            guard judged.count > 0 else { throw CLAPTestError("the transport rolled for \(rolling.count) samples only, sound from \(startDelay)") }
            for stretch in recording.trustedStretches(within: judged) {
                for start in stride(from: stretch.lowerBound, through: stretch.upperBound - window, by: window / 2) {
                    guard let first = position[start], let last = position[start + window - 1], last - first == window - 1 else { continue }
                    guard !jumps.contains(where: { $0 > start - afterJump && $0 < start + window }) else { continue }
                    let phase = first % cycle
                    let inHalf = phase % half
                    guard inHalf >= edge, inHalf + window <= half - edge else { continue }
                    let expected = phase < half ? lowHz : highHz
                    let range = start..<(start + window)
                    let heard = SignalAnalysis.zeroCrossingFrequency(samples, sampleRate: rate, range: range) ?? 0
                    let level = SignalAnalysis.peak(samples, range: range)
                    if abs(heard / expected - 1) > 0.005 || abs(level - amplitude) > 0.01 {
                        wrong.append("transport frame \(first): \(Int(heard)) Hz at \(level), expected \(Int(expected)) Hz at \(amplitude)")
                    }
                    if let locate, start >= locate {
                        counts.relocated += 1
                    } else if expected == highHz {
                        counts.located += 1
                    } else {
                        counts.wrapped += 1
                    }
                }
            }
            #expect(wrong.isEmpty, "\(wrong.count) windows played the wrong pitch or level: \(wrong.prefix(6))")
            guard counts.located >= 2, counts.wrapped >= 2, counts.relocated >= 2 else {
                throw HostTooBusy(
                    "too few clean windows: \(counts.located) from the place located, \(counts.wrapped) once the cycle wrapped, "
                        + "\(counts.relocated) after the locate while rolling")
            }
            return counts.located + counts.wrapped + counts.relocated
        }

        /// Waits until Qtractor has followed JACK's transport, stopped and located at `frame`:
        /// a recording of `seconds` of the server's timeline (periods, not the wall clock) all
        /// at that place with the transport standing, and Qtractor silent in it. A Qtractor
        /// that never settles there within a generous deadline is an error.
        static func settled(_ recorder: TimelineRecorder, at frame: Int, seconds: Double = 0.25, timeout: Double = 120) async throws {
            let deadline = TestTools.monotonicSeconds() + timeout
            while true {
                _ = try await recorder.start()
                try await recorder.wait(untilRecorded: Int(seconds * recorder.rate))
                let heard = try await recorder.finish(atFrame: recorder.frameNow)
                let standing = !heard.blocks.isEmpty && heard.blocks.allSatisfy { !$0.rolling && Int($0.transportFrame) == frame }
                if standing && heard.trustedPeak(in: 0..<heard.samples.count) == 0 { return }
                guard TestTools.monotonicSeconds() < deadline else {
                    throw CLAPTestError("Qtractor was not silent at the stopped transport's frame \(frame) within \(Int(timeout)) s")
                }
            }
        }

        /// Polls `condition` (every 20 ms) until it holds or `timeout` seconds pass.
        static func eventually(timeout: Double, _ condition: () -> Bool) async -> Bool {
            let deadline = TestTools.monotonicSeconds() + timeout
            while TestTools.monotonicSeconds() < deadline {
                if condition() { return true }
                try? await Task.sleep(for: .milliseconds(20))
            }
            return condition()
        }
    }
}

/// A private dummy JACK server with Qtractor on it, playing a session made from
/// ``session(plugin:state:directory:)`` with a home and settings of its own (a temporary directory),
/// offscreen or on an X display, its messages logged to a file there.
final class QtractorRig: @unchecked Sendable {
    static var qtractor: String { TestTools.path(of: "qtractor") ?? "/usr/bin/qtractor" }

    /// The rig's own JACK server (the dummy driver), stopped with the rig.
    let jack: PrivateJackServer
    var serverName: String { jack.name }
    let directory: URL
    /// The X display Qtractor shows its windows on (Qt's xcb platform), or nil: offscreen.
    let display: String?
    private var qtractor: Process?

    var environment: [String: String] { jack.environment }

    /// What Qtractor wrote (the plugin's clap.log lines among it), then its messages.
    var log: String {
        ["qtractor.out", "messages.log"].compactMap { try? String(contentsOf: directory.appendingPathComponent($0), encoding: .utf8) }
            .joined(separator: "\n")
    }

    /// With a `display`, Qtractor opens its mixer window there too, and a plugin in it opens
    /// its editor (GUI) when activated (double-clicked), not Qtractor's form of parameters.
    /// `directAccessParam`: the index of the plugin's parameter Qtractor draws in the plugin's
    /// row of a plugin list (its direct-access parameter), or -1 for none.
    init(document: String, rate: Int = 48_000, period: Int = 512, display: String? = nil, directAccessParam: Int = -1) throws {
        self.display = display
        try CLAPTools.prepare()  // the stand-in sequencer among the tools
        directory = try CLAPTools.temporaryDirectory()
        do {
            jack = try PrivateJackServer(prefix: "clapqtr", rate: rate, period: period)
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw error
        }

        let home = directory.appendingPathComponent("home")
        let settings = home.appendingPathComponent(".config/rncbc.org")
        let runtime = directory.appendingPathComponent("runtime")
        try FileManager.default.createDirectory(at: settings, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try Data(Self.settings(log: directory.appendingPathComponent("messages.log"), windows: display != nil).utf8).write(
            to: settings.appendingPathComponent("Qtractor.conf"))
        try Data(
            Self.session(plugin: CLAPTools.plugin.path, state: Array(document.utf8), directory: directory.path, directAccessParam: directAccessParam)
                .utf8
        ).write(to: sessionFile)
        try startQtractor()
    }

    /// The session file Qtractor opens (and saves to).
    var sessionFile: URL { directory.appendingPathComponent("clap-session.qtr") }

    /// The running Qtractor's process id (0 when none runs).
    var qtractorPID: Int32 { qtractor.map { $0.isRunning ? $0.processIdentifier : 0 } ?? 0 }

    /// Qtractor on the session file, offscreen or on the rig's display, in the rig's home.
    func startQtractor() throws {
        let home = directory.appendingPathComponent("home")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.qtractor)
        process.arguments = [sessionFile.path]
        var environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        for key in ["DISPLAY", "WAYLAND_DISPLAY", "SESSION_MANAGER", "NSM_URL"] { environment[key] = nil }
        environment["HOME"] = home.path
        environment["XDG_CONFIG_HOME"] = home.appendingPathComponent(".config").path
        environment["XDG_RUNTIME_DIR"] = directory.appendingPathComponent("runtime").path
        if let display {
            // A plugin's editor is an X11 window embedded in one of Qtractor's: a real X server.
            environment["DISPLAY"] = display
            environment["QT_QPA_PLATFORM"] = "xcb"
        } else {
            environment["QT_QPA_PLATFORM"] = "offscreen"
        }
        if !FileManager.default.fileExists(atPath: "/dev/snd/seq") { environment["LD_PRELOAD"] = CLAPTools.sequencerStandin.path }
        process.environment = environment
        process.currentDirectoryURL = directory
        let out = directory.appendingPathComponent("qtractor.out")
        if !FileManager.default.fileExists(atPath: out.path) { _ = FileManager.default.createFile(atPath: out.path, contents: nil) }
        let handle = try FileHandle(forWritingTo: out)
        handle.seekToEndOfFile()
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        try process.runWithNoSignalBlocked()
        qtractor = process
    }

    /// Qtractor saves its session (SIGUSR1, its session managers' signal to save): the
    /// file as written, once it has changed.
    func saveSession(seconds: Double = 120) throws -> String {
        let before = try String(contentsOf: sessionFile, encoding: .utf8)
        guard let qtractor, qtractor.isRunning else { throw CLAPTestError("Qtractor is not running:\n\(log.suffix(3000))") }
        kill(qtractor.processIdentifier, SIGUSR1)
        var saved = before
        // Written whole: changed, and ending with "</session>" (and two newlines, as Qtractor
        // writes it; a condition that asked for one never held, and the wait ran out).
        let written = waitFor(seconds: seconds) {
            saved = (try? String(contentsOf: self.sessionFile, encoding: .utf8)) ?? before
            return saved != before && saved.trimmingCharacters(in: .whitespacesAndNewlines).hasSuffix("</session>")
        }
        guard written else {
            let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            throw CLAPTestError("Qtractor did not save its session (files: \(files)):\n\(log.suffix(3000))")
        }
        return saved
    }

    /// Qtractor quit (its JACK client gone) and started again on the session file.
    func restartQtractor() throws {
        stopQtractor()
        guard waitFor(seconds: 120, { self.ports()?.contains { $0.hasPrefix("Qtractor") } == false }) else {
            throw CLAPTestError("Qtractor's JACK client stayed after it ended:\n\(log.suffix(3000))")
        }
        try startQtractor()
    }

    /// Qtractor asked to quit (SIGTERM), killed if it has not within `grace` seconds (a
    /// session Qtractor thinks changed would ask whether to save it, and nobody answers);
    /// how it ended: its exit status, or the signal that ended it. The grace is generous: a
    /// busy machine's Qtractor takes its time to close cleanly, which a test may check.
    @discardableResult
    func stopQtractor(grace: Double = 30) -> (status: Int32, signalled: Bool)? {
        guard let process = qtractor else { return nil }
        qtractor = nil
        PrivateJackServer.end(process, grace: grace)
        return (process.terminationStatus, process.terminationReason == .uncaughtSignal)
    }

    deinit { stop() }

    /// Qtractor's Master bus output's first port, once Qtractor has started the session.
    func waitForMasterOutput(seconds: Double = 120) throws -> String {
        var found: String?
        _ = waitFor(seconds: seconds) {
            found = self.ports()?.first { $0.hasPrefix("Qtractor") && $0.hasSuffix(":Master/out_1") }
            return found != nil || self.qtractor?.isRunning == false
        }
        guard let found else { throw CLAPTestError("Qtractor did not start its audio engine on \(serverName):\n\(log.suffix(3000))") }
        return found
    }

    /// A `jack_transport` command (play, stop, locate FRAME), as typed on its console.
    func transport(_ command: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try TestTools.require("jack_transport"))
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let input = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        input.fileHandleForWriting.write(Data((command + "\n").utf8))
        try input.fileHandleForWriting.close()
        let deadline = TestTools.monotonicSeconds() + 60
        while process.isRunning && TestTools.monotonicSeconds() < deadline { usleep(10_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        guard process.terminationReason == .exit else { throw CLAPTestError("jack_transport hung on \"\(command)\"") }
    }

    func ports() -> [String]? { jack.ports() }

    /// Qtractor first, then the server (which removes what a killed Qtractor left in
    /// /dev/shm under the server's name), then the files.
    func stop() {
        stopQtractor(grace: 5)
        jack.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    func waitFor(seconds: Double, _ condition: () -> Bool) -> Bool { jack.waitFor(condition, seconds: seconds) }

    /// Qtractor's settings: no autosave, no auto-connection of the Master bus (only the
    /// recorder listens), its messages to a log file, nothing captured from standard output
    /// (the plugin's log lines stay there), the transport in its Full mode. With `windows`:
    /// the mixer window shown at start (Qtractor keeps whether it was visible with its
    /// geometry), and a plugin activated in a plugin list opens its editor, not the form
    /// (Qtractor's "Open plugin's editor (GUI) by default"; a session keeps only where an
    /// editor was, never opens one).
    static func settings(log: URL, windows: Bool = false) -> String {
        let shown = """
            Plugins\\OpenEditor=true

            [Geometry]
            qtractorMixer\\visible=true

            """
        return """
            [AutoSave]
            Enabled=false

            [Options]
            Audio\\MasterAutoConnect=false
            Audio\\Metronome=false
            Display\\StdoutCapture=false
            Logging\\MessagesLog=true
            Logging\\MessagesLogPath=\(log.path)
            Midi\\Metronome=false
            Transport\\TransportMode=3
            \(windows ? shown : "")
            """
    }

    /// A session as Qtractor 0.9.31 saves one (its Master buses, Full transport, 48 kHz; it
    /// saves to `directory`, under the session's name),
    /// the CLAP file's second plugin (stereo) in the audio Master bus's output inserts,
    /// activated, its parameters only in its state.
    static func session(plugin: String, state: [UInt8], directory: String, directAccessParam: Int = -1) -> String {
        let encoded = base64Lines(qCompress(state))
        return """
            <!DOCTYPE qtractorSession>
            <session name="clap-session" version="Qtractor 0.9.31">
             <properties>
              <directory>\(directory)</directory>
              <description>The CLAP plugin on the Master bus, its parameters in its state</description>
              <sample-rate>48000</sample-rate>
              <tempo>120</tempo>
              <ticks-per-beat>960</ticks-per-beat>
              <beats-per-bar>4</beats-per-bar>
              <beat-divisor>2</beat-divisor>
             </properties>
             <state>
              <loop-start>0</loop-start>
              <loop-end>0</loop-end>
              <punch-in>0</punch-in>
              <punch-out>0</punch-out>
             </state>
             <files>
              <audio-list/>
              <midi-list/>
             </files>
             <devices>
              <audio-engine>
               <audio-control>
                <transport-mode>duplex</transport-mode>
                <timebase>1</timebase>
               </audio-control>
               <audio-bus mode="duplex" name="Master">
                <monitor>0</monitor>
                <channels>2</channels>
                <auto-connect>0</auto-connect>
                <input-gain>1</input-gain>
                <input-panning>0</input-panning>
                <input-controllers/>
                <input-plugins/>
                <input-connects/>
                <output-gain>1</output-gain>
                <output-panning>0</output-panning>
                <output-controllers/>
                <output-plugins>
                 <plugin type="CLAP">
                  <filename>\(plugin)</filename>
                  <index>1</index>
                  <label>\(CLAPTools.stereoID)</label>
                  <preset></preset>
                  <direct-access-param>\(directAccessParam)</direct-access-param>
                  <activated>1</activated>
                  <configs>
                   <config key="state">\(encoded)</config>
                  </configs>
                  <params/>
                  <controllers/>
                 </plugin>
                </output-plugins>
                <output-connects/>
               </audio-bus>
              </audio-engine>
              <midi-engine>
               <midi-control>
                <mmc-mode>none</mmc-mode>
                <mmc-device>127</mmc-device>
                <spp-mode>none</spp-mode>
                <clock-mode>none</clock-mode>
               </midi-control>
              </midi-engine>
             </devices>
             <tracks/>
            </session>

            """
    }

    /// Qt's qCompress: the length, big-endian, then a zlib stream (stored blocks: the state is
    /// small, and no compressor is needed to write one).
    static func qCompress(_ bytes: [UInt8]) -> [UInt8] {
        let count = UInt32(bytes.count)
        var out: [UInt8] = [UInt8(count >> 24), UInt8(count >> 16 & 0xFF), UInt8(count >> 8 & 0xFF), UInt8(count & 0xFF), 0x78, 0x01]
        var offset = 0
        repeat {
            let length = min(65_535, bytes.count - offset)
            out.append(offset + length == bytes.count ? 1 : 0)
            out += [UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8(~length >> 8 & 0xFF)]
            out += bytes[offset..<(offset + length)]
            offset += length
        } while offset < bytes.count
        var (a, b): (UInt32, UInt32) = (1, 0)
        for byte in bytes {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        let adler = b << 16 | a
        return out + [UInt8(adler >> 24), UInt8(adler >> 16 & 0xFF), UInt8(adler >> 8 & 0xFF), UInt8(adler & 0xFF)]
    }

    /// Base64 in lines of 72 characters, as Qtractor writes a state.
    static func base64Lines(_ bytes: [UInt8]) -> String {
        let text = Data(bytes).base64EncodedString()
        return stride(from: 0, to: text.count, by: 72).map { start in
            let from = text.index(text.startIndex, offsetBy: start)
            return String(text[from..<(text.index(from, offsetBy: 72, limitedBy: text.endIndex) ?? text.endIndex)])
        }.joined(separator: "\n")
    }
}
