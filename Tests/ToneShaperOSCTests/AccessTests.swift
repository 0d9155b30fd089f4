import Testing
import ToneShaperControl
import ToneShaperWire

@testable import ToneShaperOSC

@Suite("Who may control the node")
struct AccessTests {
    @Test(
        "CIDR entries parse, normalise and match",
        arguments: [
            ("192.168.1.0/24", "192.168.1.77", true),
            ("192.168.1.0/24", "192.168.2.1", false),
            ("192.168.1.5/24", "192.168.1.200", true),  // host bits are ignored
            ("10.0.0.7", "10.0.0.7", true),  // a bare address is a /32
            ("10.0.0.7", "10.0.0.8", false),
            ("0.0.0.0/0", "203.0.113.9", true),
            ("::1/128", "::1", true),
            ("::1", "::2", false),
            ("fd00::/8", "fd12:3456::1", true),
            ("fd00::/8", "fe80::1", false),
            ("2001:db8::/32", "2001:db8:ffff::1", true),
            ("127.0.0.0/8", "::ffff:127.0.0.1", true),  // IPv4-mapped senders count as IPv4
            ("::ffff:10.0.0.0/104", "10.1.2.3", true),  // and mapped networks as IPv4 networks
            ("10.0.0.0/8", "::a00:1", false),  // IPv4-compatible is not mapped
        ])
    func cidr(_ entry: String, _ address: String, _ expected: Bool) throws {
        let range = try AddressRange(parsing: entry)
        let ip = try #require(IPAddress(address))
        #expect(range.contains(ip) == expected)
    }

    @Test(
        "bad CIDR entries are refused with a message naming the entry",
        arguments: [
            ("", "is empty"),
            ("192.168.1.0/33", "beyond the 32 bits"),
            ("::/129", "beyond the 128 bits"),
            ("192.168.1.0/", "not a whole number"),
            ("192.168.1.0/-1", "not a whole number"),
            ("192.168.1.0/2x", "not a whole number"),
            ("192.168.1/24", "not a numeric"),
            ("example.com", "not a numeric"),
            ("1.2.3.4/8/9", "more than one"),
            ("fe80::1%eth0", "zone"),
        ])
    func badCIDR(_ entry: String, _ problem: String) {
        #expect {
            try AddressRange(parsing: entry)
        } throws: { error in
            let text = "\(error)"
            return text.contains(problem) && text.contains("\"\(entry)\"")
        }
    }

    @Test("the default policy is loopback only")
    func defaultPolicy() throws {
        let policy = try AccessPolicy(host: nil, allow: [])
        for sender in ["127.0.0.1", "127.8.9.10", "::1", "::ffff:127.0.0.1"] { #expect(policy.permits(host: sender), "\(sender)") }
        for sender in ["192.0.2.2", "10.0.0.1", "::2", "fe80::1", "::ffff:10.0.0.1", "", "nonsense"] {
            #expect(!policy.permits(host: sender), "\(sender)")
        }
        #expect(!policy.permits(host: nil))
    }

    @Test("0.0.0.0 opens every sender; an allow list opens its networks")
    func openPolicies() throws {
        #expect(try AccessPolicy(host: "0.0.0.0", allow: []).permits(host: "203.0.113.9"))
        let listed = try AccessPolicy(host: nil, allow: [try AddressRange(parsing: "192.168.1.0/24")])
        #expect(listed.permits(host: "192.168.1.9") && listed.permits(host: "127.0.0.1"))
        #expect(!listed.permits(host: "192.168.2.9"))
    }

    @Test("a configuration that cannot work is refused before any socket is opened")
    func badConfigurations() {
        let controller = EngineController(shape: .defaultShape, sampleRate: 48_000)
        let cases: [(OSCControlServer.Configuration, String)] = [
            (.init(port: 70_000), "out of range"),
            (.init(port: 0, host: "203.0.113.250"), "not an address of this machine"),
            (.init(port: 0, host: "my-laptop"), "not a numeric address"),
            (.init(port: 0, prefix: "/tone shaper"), "prefix"),
            (.init(port: 0, prefix: "/tone*"), "prefix"),
            (.init(port: 0, allow: ["10.0.0.0/40"]), "10.0.0.0/40"),
        ]
        for (configuration, problem) in cases {
            #expect(
                performing: { _ = try OSCControlServer(controller: controller, configuration: configuration) },
                throws: { "\($0)".contains(problem) })
        }
    }

    @Test("a busy port is reported, not crashed on")
    func busyPort() throws {
        let fixture = try OSCFixture()
        let controller = EngineController(shape: .defaultShape, sampleRate: 48_000)
        let second = try OSCControlServer(controller: controller, configuration: .init(port: fixture.server.port))
        #expect(
            performing: { try second.start() }, throws: { "\($0)" == "port \(fixture.server.port) is in use; use --osc-port 0 for any free port" })
        #expect(!second.isRunning)
    }

    @Test(
        "a sender outside the policy is ignored: no reply, no change",
        .enabled(if: nonLoopbackIPv4Address() != nil, "needs a non-loopback IPv4 address"))
    func refusedSender() throws {
        let address = try #require(nonLoopbackIPv4Address())
        // Sending to the machine's own non-loopback address makes that address the source.
        let fixture = try OSCFixture(clientHost: address)
        #expect(try fixture.request("/toneshaper/amplitude", [.float(0.5)], timeout: 0.3) == nil)
        #expect(try fixture.request("/toneshaper/nope", timeout: 0.3) == nil)
        #expect(fixture.server.counters.ignoredSenders == 2)
        #expect(fixture.server.counters.received == 0)
        #expect(fixture.controller.shape == .defaultShape)
        #expect(fixture.takeCommands().isEmpty)
    }

    @Test(
        "the allow list and an interface host let such a sender in",
        .enabled(if: nonLoopbackIPv4Address() != nil, "needs a non-loopback IPv4 address"))
    func allowedSender() throws {
        let address = try #require(nonLoopbackIPv4Address())
        let listed = try OSCFixture({ $0.allow = ["\(address)/32"] }, clientHost: address)
        #expect(try listed.request("/toneshaper/amplitude", [.float(0.5)])?.path == "/toneshaper/ok")
        #expect(listed.controller.shape.amplitude == 0.5)

        let interface = try OSCFixture({ $0.host = address }, clientHost: address)
        #expect(try interface.request("/toneshaper/state")?.path == "/toneshaper/state")
        #expect(interface.server.policy.allowed.count > AddressRange.loopback.count)
    }
}
