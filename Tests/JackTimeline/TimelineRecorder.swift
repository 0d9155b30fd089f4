import CJack
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A JACK client of the tests' own that records audio ports and stamps every block it
/// records with the JACK frame it began at (`jack_last_frame_time`) and whether the
/// transport rolled in that period.
///
/// It is what lets a test place an event and judge its effect on JACK's own timeline. A
/// recorder that is a separate program (jack_capture) begins at a frame the test cannot
/// know, so a window read "1.5 s into the recording" is only where the event was if the
/// test's thread, the recorder's start and the server all kept time; on a loaded machine
/// none of them does. Here the frame of every recorded sample is known: an event sent at
/// frame F (``MIDISender``) is judged at `recording.index(ofFrame: F)`.
///
/// Connect it after what it records (node → recorder) and the sender before (sender →
/// node): JACK runs a cycle's clients in the graph's order, so an event written at frame F
/// is heard in the node's output of the same cycle, at frame F. One client that sent and
/// recorded would close a loop in the graph, and JACK would then delay one connection by a
/// period.
///
/// A test tool, not real-time code, but its callback neither allocates nor locks: the
/// storage is allocated up front, and the callback publishes what it wrote through atomics.
public final class TimelineRecorder: @unchecked Sendable {
    /// One period as recorded.
    public struct Block: Sendable, Equatable {
        /// The JACK frame of the block's first sample.
        public var frame: UInt32
        /// Where the block's first sample lies in the recording.
        public var index: Int
        public var count: Int
        /// Whether the transport rolled in this period.
        public var rolling: Bool
        /// The transport's position in this period.
        public var transportFrame: UInt32
        /// The period's start and the next period's, on JACK's clock (`jack_get_cycle_times`,
        /// microseconds): what a client that maps a wall-clock time onto frames goes by.
        public var cycleStartMicros: Int64
        public var cycleEndMicros: Int64
        /// The wall clock (CLOCK_REALTIME, what OSC time tags are converted to) minus JACK's
        /// clock, read in the callback.
        public var wallMinusJackMicros: Int64

        public init(
            frame: UInt32, index: Int, count: Int, rolling: Bool, transportFrame: UInt32 = 0, cycleStartMicros: Int64 = 0,
            cycleEndMicros: Int64 = 0, wallMinusJackMicros: Int64 = 0
        ) {
            self.frame = frame
            self.index = index
            self.count = count
            self.rolling = rolling
            self.transportFrame = transportFrame
            self.cycleStartMicros = cycleStartMicros
            self.cycleEndMicros = cycleEndMicros
            self.wallMinusJackMicros = wallMinusJackMicros
        }
    }

    public let name: String
    public let rate: Double
    public let channelCount: Int
    private let client: OpaquePointer
    private let ports: [OpaquePointer]
    private let capacity: Int
    private let maximumBlocks: Int
    private let storage: UnsafeMutablePointer<Float>
    private let stamps: UnsafeMutablePointer<Block>

    /// 0: idle, 1: recording, 2: stopped (at the end frame, or full).
    private let state = Atomic<Int>(0)
    /// Samples (per channel) and blocks written; read once `state` says so.
    private let written = Atomic<Int>(0)
    private let blocksWritten = Atomic<Int>(0)
    /// The frame at which recording stops (the block that reaches it is the last), as a
    /// distance from the first recorded frame; Int.max while open-ended.
    private let endOffset = Atomic<Int>(Int.max)
    private let firstFrame = Atomic<UInt32>(0)
    /// Periods the callback has run, recording or not: how ``connect(_:)`` knows its
    /// connections are in the graph the server runs.
    private let cycles = Atomic<Int>(0)
    /// Transport state of the latest period the callback saw (recording or not): 1 rolling.
    private let lastRolling = Atomic<Int>(0)
    /// Why the server closed this client, if it did (`jack_on_info_shutdown`).
    private let shutdown = Mutex<String?>(nil)

    /// Opens `name` on the server `serverName` with `channels` audio inputs (`in_1` …),
    /// able to hold `seconds` of recording.
    public init(serverName: String, name: String = "timeline", channels: Int = 1, seconds: Double = 60) throws {
        var status = JackStatus(rawValue: 0)
        guard
            let client = name.withCString({ n in
                serverName.withCString { toneshaper_jack_client_open_on(n, JackNoStartServer, &status, $0) }
            })
        else { throw TimelineError("the timeline recorder could not open on \(serverName) (JACK status \(status.rawValue))") }
        var ports: [OpaquePointer] = []
        for channel in 1...max(1, channels) {
            guard let port = jack_port_register(client, "in_\(channel)", toneshaper_jack_audio_type(), UInt(JackPortIsInput.rawValue), 0)
            else {
                jack_client_close(client)
                throw TimelineError("the timeline recorder could not register in_\(channel)")
            }
            ports.append(port)
        }
        self.client = client
        self.ports = ports
        self.name = String(cString: jack_get_client_name(client))
        channelCount = ports.count
        rate = Double(jack_get_sample_rate(client))
        capacity = Int(seconds * rate)
        maximumBlocks = capacity / 16 + 1
        storage = .allocate(capacity: capacity * ports.count)
        storage.initialize(repeating: 0, count: capacity * ports.count)
        stamps = .allocate(capacity: maximumBlocks)
        jack_set_process_callback(
            client,
            { frames, argument in
                guard let argument else { return 0 }
                Unmanaged<TimelineRecorder>.fromOpaque(argument).takeUnretainedValue().process(frames)
                return 0
            }, Unmanaged.passUnretained(self).toOpaque())
        jack_on_info_shutdown(
            client,
            { _, reason, argument in
                guard let argument else { return }
                let recorder = Unmanaged<TimelineRecorder>.fromOpaque(argument).takeUnretainedValue()
                let text = reason.map { String(cString: $0) } ?? "no reason given"
                recorder.shutdown.withLock { $0 = text }
            }, Unmanaged.passUnretained(self).toOpaque())
        guard jack_activate(client) == 0 else {
            jack_client_close(client)
            storage.deallocate()
            stamps.deallocate()
            throw TimelineError("the timeline recorder could not activate")
        }
    }

    deinit {
        jack_deactivate(client)
        jack_client_close(client)
        storage.deallocate()
        stamps.deallocate()
    }

    /// Connects `sources` (one per channel, in order) to the recorder's inputs, and returns
    /// once the server has run three periods with them: JACK2 takes up a changed graph at
    /// a period's start, and the periods around the change may hold silence or a buffer the
    /// source was still writing (a CI run recorded a break it could not explain in the
    /// second period of a recording begun right after `jack_connect` returned).
    public func connect(_ sources: [String], timeout: Double = 30) throws {
        for (source, port) in zip(sources, ports) {
            try Self.connect(client, from: source, to: String(cString: jack_port_name(port)))
        }
        let connected = cycles.load(ordering: .acquiring)
        let deadline = ContinuousClock.now + .milliseconds(Int(timeout * 1000))
        while cycles.load(ordering: .acquiring) < connected + 3 {
            guard ContinuousClock.now < deadline else {
                throw TimelineError("the server ran no three periods in \(timeout) s after \(sources) were connected to \(name)")
            }
            usleep(1_000)
        }
    }

    /// Connects two ports, trying again for up to `timeout` seconds: a host such as jalv
    /// registers its ports before it activates, and JACK refuses to connect a port of a
    /// client that is not active yet (on a loaded host that can last a while).
    static func connect(_ client: OpaquePointer, from source: String, to destination: String, timeout: Double = 10) throws {
        let deadline = ContinuousClock.now + .milliseconds(Int(timeout * 1000))
        var result: Int32 = 0
        repeat {
            result = jack_connect(client, source, destination)
            if result == 0 || result == EEXIST { return }
            usleep(20_000)
        } while ContinuousClock.now < deadline
        throw TimelineError("could not connect \(source) to \(destination) in \(timeout) s (JACK said \(result))")
    }

    /// The JACK frame now (an estimate between periods, as `jack_frame_time` gives it):
    /// where on the timeline a change sent now by other means (OSC, a console) was sent.
    public var frameNow: UInt32 { jack_frame_time(client) }

    /// Whether the transport rolled in the latest period.
    public var transportRolling: Bool { lastRolling.load(ordering: .acquiring) == 1 }

    /// Starts recording at the next period and returns the frame of its first sample, once
    /// that period has been recorded.
    @discardableResult
    public func start(timeout: Double = 10) async throws -> UInt32 {
        guard state.load(ordering: .acquiring) != 1 else { throw TimelineError("the recorder is recording already") }
        written.store(0, ordering: .relaxed)
        blocksWritten.store(0, ordering: .relaxed)
        endOffset.store(Int.max, ordering: .relaxed)
        state.store(1, ordering: .releasing)
        guard await Self.poll(timeout: timeout, { self.blocksWritten.load(ordering: .acquiring) > 0 }) else {
            state.store(2, ordering: .releasing)
            throw TimelineError("the recorder saw no period in \(timeout) s: is the JACK server running?")
        }
        return firstFrame.load(ordering: .acquiring)
    }

    /// Frames recorded so far since the start (the last recorded block's end).
    public var framesRecorded: Int {
        let blocks = blocksWritten.load(ordering: .acquiring)
        guard blocks > 0 else { return 0 }
        let last = stamps[blocks - 1]
        return Self.distance(from: firstFrame.load(ordering: .acquiring), to: last.frame) + last.count
    }

    /// Waits until `frames` have passed on the timeline since the recording's start (so a
    /// test can wait "one second of the server's time", which a busy host stretches).
    public func wait(untilRecorded frames: Int, timeout: Double? = nil) async throws {
        let limit = timeout ?? (Double(frames) / rate * 4 + 10)
        guard await Self.poll(timeout: limit, { self.framesRecorded >= frames || self.state.load(ordering: .acquiring) == 2 }) else {
            throw TimelineError(
                "the server's timeline did not advance \(frames) frames in \(limit) s (the server's frame now \(frameNow))"
                    + (shutdown.withLock { $0 }.map { "; the server closed the recorder: \($0)" } ?? ""))
        }
    }

    /// Records up to and including the period that holds `frame` (a JACK frame at or after
    /// the start), then stops and returns the recording.
    public func finish(atFrame frame: UInt32, timeout: Double? = nil) async throws -> TimelineRecording {
        let offset = Self.distance(from: firstFrame.load(ordering: .acquiring), to: frame)
        endOffset.store(max(0, offset), ordering: .releasing)
        let limit = timeout ?? (Double(max(0, offset - framesRecorded)) / rate * 4 + 10)
        guard await Self.poll(timeout: limit, { self.state.load(ordering: .acquiring) == 2 }) else {
            state.store(2, ordering: .releasing)
            throw TimelineError(
                "the recording did not reach frame \(frame) in \(limit) s (at \(framesRecorded) frames; the server's frame now \(frameNow))"
                    + (shutdown.withLock { $0 }.map { "; the server closed the recorder: \($0)" } ?? ""))
        }
        return collected()
    }

    /// Starts, records `seconds` of the server's timeline, and returns the recording.
    public func record(seconds: Double) async throws -> TimelineRecording {
        let first = try await start()
        return try await finish(atFrame: first &+ UInt32(seconds * rate) &- 1)
    }

    private func collected() -> TimelineRecording {
        let count = written.load(ordering: .acquiring)
        let blocks = Array(UnsafeBufferPointer(start: stamps, count: blocksWritten.load(ordering: .acquiring)))
        let channels = (0..<channelCount).map { Array(UnsafeBufferPointer(start: storage + $0 * capacity, count: count)) }
        return TimelineRecording(channels: channels, sampleRate: rate, blocks: blocks, full: count >= capacity)
    }

    private func process(_ frames: jack_nframes_t) {
        cycles.add(1, ordering: .releasing)
        let frame = jack_last_frame_time(client)
        var (rollingFlag, transportFrame, bar, beat, tick) = (Int32(0), UInt32(0), Int32(0), Int32(0), Int32(0))
        var (ticksPerBeat, beatsPerBar, tempo) = (0.0, Float(0), 0.0)
        _ = toneshaper_jack_transport(client, &rollingFlag, &transportFrame, &bar, &beat, &tick, &ticksPerBeat, &beatsPerBar, &tempo)
        let rolling = rollingFlag != 0
        lastRolling.store(rolling ? 1 : 0, ordering: .releasing)
        guard state.load(ordering: .acquiring) == 1 else { return }
        let at = written.load(ordering: .relaxed)
        let blocks = blocksWritten.load(ordering: .relaxed)
        let count = Int(frames)
        guard at + count <= capacity, blocks < maximumBlocks else {
            state.store(2, ordering: .releasing)
            return
        }
        if blocks == 0 { firstFrame.store(frame, ordering: .relaxed) }
        for (channel, port) in ports.enumerated() {
            guard let buffer = jack_port_get_buffer(port, frames) else { continue }
            (storage + channel * capacity + at).update(from: buffer.assumingMemoryBound(to: Float.self), count: count)
        }
        var (cycleFrames, cycleStart, cycleEnd, periodMicros) = (jack_nframes_t(0), jack_time_t(0), jack_time_t(0), Float(0))
        _ = jack_get_cycle_times(client, &cycleFrames, &cycleStart, &cycleEnd, &periodMicros)
        let wallMinusJack = toneshaper_wall_clock_microseconds() - Int64(bitPattern: jack_get_time())
        stamps[blocks] = Block(
            frame: frame, index: at, count: count, rolling: rolling, transportFrame: transportFrame,
            cycleStartMicros: Int64(bitPattern: cycleStart), cycleEndMicros: Int64(bitPattern: cycleEnd), wallMinusJackMicros: wallMinusJack)
        written.store(at + count, ordering: .releasing)
        blocksWritten.store(blocks + 1, ordering: .releasing)
        let reached = Self.distance(from: firstFrame.load(ordering: .relaxed), to: frame) + count
        if reached > endOffset.load(ordering: .acquiring) { state.store(2, ordering: .releasing) }
    }

    /// `to - from` on JACK's wrapping 32-bit frame clock.
    public static func distance(from: UInt32, to: UInt32) -> Int { Int(Int32(bitPattern: to &- from)) }

    static func poll(timeout: Double, _ condition: @escaping () -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + .milliseconds(Int(timeout * 1000))
        while !condition() {
            if ContinuousClock.now > deadline { return false }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return true
    }
}

/// Something the timeline clients could not do: the JACK server, not the node under test.
public struct TimelineError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
