import CLV2
import ToneShaperLV2Layout
import ToneShaperModel
import ToneShaperPlugin

/// The curve between the plugin and its editor window, on the LV2 side: a patch:Set of
/// urn:toneshaper:points whose value is an atom:Vector of atom:Double (t0, f0, t1, f1, ...,
/// seconds and Hz as heard), at most `PluginPoints.maximumSent` points, in both directions;
/// a patch:Get asks for it.
///
/// A vector of numbers rather than JSON text: the audio thread copies it as it comes,
/// with no parsing, and a reader checks it by its sizes alone. Both atom ports declare
/// rsz:minimumSize of `PluginPoints.messageBytes`, room for the largest message; a curve of
/// more points is sent reduced to its outline (`PluginPoints.reduced`).
///
/// The audio thread never waits and never allocates here: the editor's points go into
/// `staging` as they come, then into the inbox for the worker (`PointsMailbox`) when the
/// worker is not reading it, with a `WorkKind.points` message; the curve for the editor
/// comes from the worker through the outbox and is written on the notify port when the
/// port has room (else at a later block).
struct PointsLink {
    let inbox: UnsafeMutablePointer<PointsMailbox>
    let outbox: UnsafeMutablePointer<PointsMailbox>
    let staging: UnsafeMutablePointer<Double>
    var stagingCount = 0
    /// `staging` holds points the inbox has not taken yet.
    var stagingFull = false
    /// The worker has not yet been asked to take the inbox's points.
    var takeOwed = false
    /// A patch:Get waits to reach the worker.
    var sendOwed = false
    /// Frames since the playhead was last sent (it goes about 30 times a second).
    var framesSincePlayhead = 0

    static func make() -> PointsLink {
        PointsLink(inbox: PointsMailbox.make(), outbox: PointsMailbox.make(), staging: .allocate(capacity: PointsMailbox.capacity))
    }

    func free() {
        PointsMailbox.destroy(inbox)
        PointsMailbox.destroy(outbox)
        staging.deallocate()
    }
}

extension Plugin {
    /// The value of a patch:Set of the points: copied into `staging`, the worker told at
    /// the block's end (`forwardPoints`).
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    mutating func receivePoints(_ value: (type: LV2_URID, body: UnsafeRawBufferPointer)) {
        let body = value.body
        guard value.type == urids.atomVector, body.count >= 8, let base = body.baseAddress,
            base.loadUnaligned(as: UInt32.self) == 8, base.loadUnaligned(fromByteOffset: 4, as: UInt32.self) == urids.atomDouble
        else {
            problems.note(.pointsMalformed)
            return
        }
        let count = (body.count - 8) / 8
        guard count >= 2, count % 2 == 0, count <= PointsMailbox.capacity else {
            problems.note(.pointsMalformed)
            return
        }
        UnsafeMutableRawPointer(points.staging).copyMemory(from: base + 8, byteCount: count * 8)
        points.stagingCount = count
        points.stagingFull = true
    }

    /// A patch:Get: the worker puts the curve in the outbox, and from now on after every
    /// document, program or state too.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    mutating func requestPoints() {
        points.outbox.pointee.listen()
        points.sendOwed = true
    }

    /// At the block's end: the editor's newest points to the worker, and a patch:Get's
    /// request; what cannot go now goes at a later block.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    mutating func forwardPoints() {
        if points.stagingFull, points.inbox.pointee.beginFill() {
            let count = points.stagingCount
            UnsafeMutableRawPointer(points.inbox.pointee.numbers).copyMemory(from: points.staging, byteCount: count * 8)
            points.inbox.pointee.endFill(count: count)
            points.stagingFull = false
            points.takeOwed = true
        }
        let empty = UnsafeRawBufferPointer(start: nil, count: 0)
        if points.takeOwed, scheduler.schedule(.points, empty) { points.takeOwed = false }
        if points.sendOwed, scheduler.schedule(.sendPoints, empty) { points.sendOwed = false }
        inline.queueDrawIfChanged()
    }

    /// The curve the worker left in the outbox, as a patch:Set on the notify port, when the
    /// port has room for it; and, while an editor window has asked for the curve, the
    /// playhead about 30 times a second.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    mutating func writePointsToNotify(frames: Int) {
        writePlayhead(frames: frames)
        guard notify != nil, points.outbox.pointee.beginRead() else { return }
        let count = points.outbox.pointee.count
        // An atom:Vector of atom:Double: its body is the element size and type, then the numbers.
        guard let body = appendPatchSet(property: urids.points, valueType: urids.atomVector, valueSize: 8 + 8 * count) else {
            points.outbox.pointee.endRead(taken: false)
            return
        }
        body.storeBytes(of: UInt32(8), as: UInt32.self)
        body.storeBytes(of: urids.atomDouble, toByteOffset: 4, as: UInt32.self)
        (body + 8).copyMemory(from: points.outbox.pointee.numbers, byteCount: count * 8)
        points.outbox.pointee.endRead(taken: true)
    }
}

extension Worker {
    /// The editor's points, from the inbox to the engine.
    static func takePoints(plugin: UnsafeMutablePointer<Plugin>, responder: WorkResponder) {
        if plugin.pointee.engine.takePoints(from: plugin.pointee.points.inbox, answer: responder) { plugin.pointee.inline.curveChanged() }
    }

    /// The curve as it plays, into the outbox, when an editor window listens; the mixer
    /// strip's picture is drawn again.
    static func sendPoints(plugin: UnsafeMutablePointer<Plugin>, always: Bool) {
        plugin.pointee.inline.curveChanged()
        guard always || plugin.pointee.points.outbox.pointee.isListening else { return }
        plugin.pointee.engine.sendPoints(into: plugin.pointee.points.outbox)
    }
}

extension Plugin {
    /// A patch:Set of urn:toneshaper:playhead to an atom:Float (where the cycle is, 0..<1).
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    private mutating func writePlayhead(frames: Int) {
        points.framesSincePlayhead += frames
        guard points.outbox.pointee.isListening, Double(points.framesSincePlayhead) * 30 >= engine.sampleRate,
            let body = appendPatchSet(property: urids.playhead, valueType: urids.atomFloat, valueSize: 4)
        else { return }
        points.framesSincePlayhead = 0
        body.storeBytes(of: Float(engine.cyclePosition), as: Float.self)
    }
}
