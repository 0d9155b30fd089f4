/// What a plugin format offers the plugin core (``PluginEngine``): the few services every
/// format has in some form. A format's shell implements it over its own API (LV2's
/// worker:schedule and log:log; a CLAP host's thread and log), and the core never sees the
/// format.
///
/// Threads: ``scheduleWork(_:)`` is called on the audio thread and must neither block nor
/// allocate; the others are called off it.
public protocol PluginHost {
    /// Queues `request` (plain bytes, copied) for the work thread, which hands it to
    /// ``PluginEngine/work(_:answer:)``. False when the queue is full or there is no work
    /// thread: the request is dropped.
    func scheduleWork(_ request: UnsafeRawBufferPointer) -> Bool
    /// Writes a line to the host's log.
    func log(_ level: PluginLogLevel, _ message: String)
    /// The text of built-in document `index` (in name order, as the node lists them), for a
    /// MIDI program change; nil beyond the last.
    func builtInDocument(_ index: Int) -> [UInt8]?
}

/// How the work thread answers the audio thread: the bytes (copied) reach
/// ``PluginEngine/workResponse(_:)`` before a later block. False when the host refused them.
public protocol PluginAnswer {
    func respond(_ answer: UnsafeRawBufferPointer) -> Bool
}

/// The levels of a log line, as hosts' logs have them.
public enum PluginLogLevel: Sendable {
    case error, warning, note
}
