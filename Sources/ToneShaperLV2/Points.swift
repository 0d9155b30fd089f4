import CLV2
import ToneShaperLV2Layout
import ToneShaperModel
import ToneShaperPlugin

// The curve between the plugin and its editor window, on the LV2 side: a patch:Set of urn:toneshaper:points whose
// value is an atom:Vector of atom:Double (t0, f0, t1, f1, ..., seconds and Hz as heard), at most
// `PluginPoints.maximumSent` points, in both directions; a patch:Get asks for it. The core's ``CurveRelay`` carries it
// between run() and the worker. A vector of numbers rather than JSON text: the audio thread copies it as it comes,
// with no parsing, and a reader checks it by its sizes alone. Both atom ports declare rsz:minimumSize of
// `PluginPoints.messageBytes`, room for the largest message; a curve of more points is sent reduced to its outline
// (`PluginPoints.reduced`).
extension Plugin {
    /// The value of a patch:Set of the points, for the worker at the block's end (`forwardPoints`).
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    mutating func receivePoints(_ value: (type: LV2_URID, body: UnsafeRawBufferPointer)) {
        let body = value.body
        guard value.type == urids.atomVector, body.count >= 8, let base = body.baseAddress,
            base.loadUnaligned(as: UInt32.self) == 8, base.loadUnaligned(fromByteOffset: 4, as: UInt32.self) == urids.atomDouble,
            points.receive(base + 8, count: (body.count - 8) / 8)
        else {
            problems.note(.pointsMalformed)
            return
        }
    }

    /// At the block's end: the editor's newest points and a patch:Get's request to the worker.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    mutating func forwardPoints() {
        if points.owesWork {  // nearly every block owes none: no copy of the scheduler for the closure
            let scheduler = self.scheduler
            let empty = UnsafeRawBufferPointer(start: nil, count: 0)
            points.forward { work in scheduler.schedule(work == .take ? .points : .sendPoints, empty) }
        }
        inline.queueDrawIfChanged()
    }

    /// The curve the worker left for the editor, as a patch:Set on the notify port when the
    /// port has room for it; and, while an editor window listens, the playhead (a patch:Set
    /// of urn:toneshaper:playhead to an atom:Float: where the cycle is, 0..<1).
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    mutating func writePointsToNotify(frames: Int) {
        if points.playheadDue(frames: frames, sampleRate: engine.sampleRate),
            let body = appendPatchSet(property: urids.playhead, valueType: urids.atomFloat, valueSize: 4)
        {
            points.playheadSent()
            body.storeBytes(of: Float(engine.cyclePosition), as: Float.self)
        }
        guard notify != nil else { return }
        let relay = points  // (a copy of its pointers: the closure writes to self)
        relay.sendCurve { numbers, count in
            // An atom:Vector of atom:Double: its body is the element size and type, then the numbers.
            guard let body = appendPatchSet(property: urids.points, valueType: urids.atomVector, valueSize: 8 + 8 * count) else { return false }
            body.storeBytes(of: UInt32(8), as: UInt32.self)
            body.storeBytes(of: urids.atomDouble, toByteOffset: 4, as: UInt32.self)
            (body + 8).copyMemory(from: numbers, byteCount: count * 8)
            return true
        }
        relay.tuningOutbox.pointee.send { text, count in  // the tuning, an atom:String
            guard let body = appendPatchSet(property: urids.tuning, valueType: urids.atomString, valueSize: count) else { return false }
            body.copyMemory(from: text, byteCount: count)
            return true
        }
    }
}

extension Worker {
    /// The editor's points, from the inbox to the engine.
    static func takePoints(plugin: UnsafeMutablePointer<Plugin>, responder: WorkResponder) {
        if plugin.pointee.engine.takePoints(from: plugin.pointee.points.inbox, answer: responder) { plugin.pointee.inline.curveChanged() }
    }

    /// The curve as it plays and the tuning, into the outboxes, when an editor window
    /// listens; the mixer strip's picture is drawn again.
    static func sendPoints(plugin: UnsafeMutablePointer<Plugin>, always: Bool) {
        plugin.pointee.inline.curveChanged()
        guard always || plugin.pointee.points.outbox.pointee.isListening else { return }
        plugin.pointee.engine.sendPoints(into: plugin.pointee.points.outbox)
        plugin.pointee.engine.sendTuning(to: plugin.pointee.points, always: true)
    }
}
