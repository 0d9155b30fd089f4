/// A configuration the OSC or web server cannot use (a port, a host, an allow-list entry),
/// or a server that could not start. The options are OSC's (`--osc-host`, `--osc-allow`),
/// which the web side obeys too, hence the name.
public struct OSCConfigurationError: Error, Equatable, CustomStringConvertible, Sendable {
    public var description: String
    public init(_ description: String) { self.description = description }
}
