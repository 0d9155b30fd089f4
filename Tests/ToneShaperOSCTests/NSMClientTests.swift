import Testing
import ToneShaperControl
import ToneShaperWire

@testable import ToneShaperOSC

/// The NSM client protocol without sockets: what the node answers the session manager,
/// and what it refuses before anything changes.
@Suite("NSM client protocol")
struct NSMClientTests {
    /// A host that records what it was asked and answers as told.
    final class FakeHost: NSMSessionHost {
        var opened: [NSMOpenRequest] = []
        var saves = 0
        var refusedWith: (Int32, String)?
        var openResult: Result<String, NSMFailure> = .success("opened")
        var saveResult: Result<String, NSMFailure> = .success("saved")
        func openSession(_ request: NSMOpenRequest) -> Result<String, NSMFailure> {
            opened.append(request)
            return openResult
        }
        func saveSession() -> Result<String, NSMFailure> {
            saves += 1
            return saveResult
        }
        func sessionManagerRefused(code: Int32, message: String) { refusedWith = (code, message) }
        func sessionIsLoaded() {}
    }

    /// A client talking to a fake host, and everything it sent.
    final class Fixture {
        let host = FakeHost()
        var sent: [OSCMessage] = []
        lazy var client = NSMClient(host: host) { [unowned self] in self.sent.append($0) }

        func welcome() {
            client.receive(path: "/reply", arguments: [.string("/nsm/server/announce"), .string("hi"), .string("nsmd"), .string(":server-control:")])
        }
        func open(_ path: String = "/home/u/NSM Sessions/song/toneshaper.nABCD", id: String = "toneshaper.nABCD") {
            client.receive(path: "/nsm/client/open", arguments: [.string(path), .string("toneshaper"), .string(id)])
        }
        func takeSent() -> [String] {
            defer { sent = [] }
            return sent.map(\.description)
        }
    }

    @Test func capabilitiesAreColonSeparatedAndOnlyWhatIsThere() {
        #expect(NSMCapabilities([.switch, .dirty]).announced == ":switch:dirty:")
        #expect(NSMCapabilities([.switch, .dirty, .optionalGUI]).announced == ":switch:dirty:optional-gui:")
        #expect(NSMCapabilities([]).announced == "")
        #expect(Fixture().client.capabilities.announced == ":switch:dirty:", "no :optional-gui: without a GUI to show")
    }

    @Test func announceCarriesNameCapabilitiesExecutableAPIVersionAndPid() {
        let message = Fixture().client.announcement(name: "toneshaper", executable: "toneshaper", pid: 4242)
        #expect(message.path == "/nsm/server/announce")
        #expect(
            message.arguments == [
                .string("toneshaper"), .string(":switch:dirty:"), .string("toneshaper"),
                .int32(1), .int32(1), .int32(4242),
            ])
    }

    @Test func openIsAnsweredAndReportsClean() {
        let f = Fixture()
        f.welcome()
        #expect(f.client.phase == .managed(manager: "nsmd", capabilities: ":server-control:"))
        f.open()
        #expect(
            f.host.opened == [
                NSMOpenRequest(path: "/home/u/NSM Sessions/song/toneshaper.nABCD", displayName: "toneshaper", clientID: "toneshaper.nABCD")
            ])
        #expect(f.takeSent() == ["/reply /nsm/client/open opened", "/nsm/client/is_clean"])
        #expect(f.client.session?.clientID == "toneshaper.nABCD")
    }

    @Test func dirtyIsReportedOnceAndCleanAfterSave() {
        let f = Fixture()
        f.client.report(dirty: true)
        #expect(f.takeSent() == [], "nothing is reported before a session is open")
        f.open()
        _ = f.takeSent()
        f.client.report(dirty: true)
        f.client.report(dirty: true)
        #expect(f.takeSent() == ["/nsm/client/is_dirty"])
        f.client.receive(path: "/nsm/client/save", arguments: [])
        #expect(f.host.saves == 1)
        #expect(f.takeSent() == ["/reply /nsm/client/save saved", "/nsm/client/is_clean"])
        f.client.report(dirty: true)
        #expect(f.takeSent() == ["/nsm/client/is_dirty"])
    }

    @Test func failuresAreAnsweredWithTheirCodesAndChangeNothing() {
        let f = Fixture()
        f.client.receive(path: "/nsm/client/save", arguments: [])
        #expect(f.host.saves == 0)
        #expect(f.takeSent() == ["/error /nsm/client/save -6 \"no session is open yet; nothing to save\""])

        f.host.openResult = .failure(NSMFailure(.badProject, "corrupt"))
        f.open()
        #expect(f.takeSent() == ["/error /nsm/client/open -9 corrupt"])
        #expect(f.client.session == nil)

        f.host.openResult = .success("opened")
        f.open()
        _ = f.takeSent()
        f.host.saveResult = .failure(NSMFailure(.general, "disk full"))
        f.client.report(dirty: true)
        _ = f.takeSent()
        f.client.receive(path: "/nsm/client/save", arguments: [])
        #expect(f.takeSent() == ["/error /nsm/client/save -1 \"disk full\""], "still dirty: no is_clean after a failed save")
        #expect(f.client.reportedDirty == true)
    }

    @Test func switchOpensAgainWithTheNewSession() {
        let f = Fixture()
        f.open()
        f.open("/s/other/toneshaper.nXYZ", id: "toneshaper.nXYZ")
        #expect(f.host.opened.map(\.clientID) == ["toneshaper.nABCD", "toneshaper.nXYZ"])
        #expect(f.client.session?.path == "/s/other/toneshaper.nXYZ")
    }

    @Test(
        "malformed or hostile opens are refused before the host sees them",
        arguments: [
            ([OSCValue.string("/s/a"), .string("x")], "expects three strings"),
            ([.string("/s/a"), .string("x"), .int32(3)], "expects three strings"),
            ([.string("relative/path"), .string("x"), .string("id")], "not absolute"),
            ([.string("/s/../../etc/passwd"), .string("x"), .string("id")], "\"..\""),
            ([.string("/s/dir/"), .string("x"), .string("id")], "directory"),
            ([.string("/s/a\n"), .string("x"), .string("id")], "control characters"),
            ([.string("/s/a"), .string("x"), .string("")], "empty"),
            ([.string("/s/a"), .string("x"), .string("system:playback")], "JACK client name"),
            ([.string("/s/a"), .string("x"), .string(String(repeating: "x", count: 64))], "63 bytes"),
            ([.string("/" + String(repeating: "a", count: 5000)), .string("x"), .string("id")], "longer than"),
        ])
    func hostileOpen(_ arguments: [OSCValue], _ reason: String) {
        let f = Fixture()
        let refusal = f.client.receive(path: "/nsm/client/open", arguments: arguments)
        #expect(refusal?.reason.contains(reason) == true, "\(String(describing: refusal))")
        #expect(f.host.opened.isEmpty)
        #expect(f.sent.count == 1 && f.sent[0].path == "/error")
        #expect(f.sent.first?.arguments.prefix(2) == [.string("/nsm/client/open"), .int32(-1)])
    }

    @Test func strayMessagesAreIgnoredAndRefusedAnnounceEndsTheClient() {
        let f = Fixture()
        #expect(f.client.receive(path: "/nsm/client/save", arguments: [.int32(1)])?.needsAnswer == true)
        _ = f.takeSent()
        #expect(f.client.receive(path: "/toneshaper/wave", arguments: [.string("Square")]) == nil)
        #expect(f.client.receive(path: "/reply", arguments: [.string("/nsm/server/list"), .string("x")]) == nil)
        #expect(f.client.receive(path: "/nsm/client/session_is_loaded", arguments: []) == nil)
        #expect(f.takeSent() == [])
        f.client.receive(path: "/nsm/client/show_optional_gui", arguments: [])
        #expect(f.takeSent() == ["/nsm/client/gui_is_hidden"], "no GUI to show: say it stays hidden")

        f.client.receive(path: "/error", arguments: [.string("/nsm/server/announce"), .int32(-2), .string("incompatible API")])
        #expect(f.client.phase == .refused)
        #expect(f.host.refusedWith?.0 == -2)
        f.open()
        #expect(f.host.opened.isEmpty)
    }

    @Test func anOptionalGUIIsShownAndHiddenByTheHost() {
        final class GUIHost: NSMSessionHost {
            var visible = false
            func openSession(_ request: NSMOpenRequest) -> Result<String, NSMFailure> { .success("") }
            func saveSession() -> Result<String, NSMFailure> { .success("") }
            func sessionManagerRefused(code: Int32, message: String) {}
            func sessionIsLoaded() {}
            func setOptionalGUI(visible: Bool) -> Bool {
                self.visible = visible
                return visible
            }
        }
        let host = GUIHost()
        var sent: [String] = []
        let client = NSMClient(capabilities: [.switch, .dirty, .optionalGUI], host: host) { sent.append($0.path) }
        #expect(client.announcement(name: "t", executable: "t", pid: 1).arguments[1] == .string(":switch:dirty:optional-gui:"))
        #expect(client.afterAnnouncement().map(\.path) == ["/nsm/client/gui_is_hidden"], "starts hidden, and says so")
        client.receive(path: "/nsm/client/show_optional_gui", arguments: [])
        #expect(host.visible && sent == ["/nsm/client/gui_is_shown"])
        client.receive(path: "/nsm/client/hide_optional_gui", arguments: [])
        #expect(!host.visible && sent == ["/nsm/client/gui_is_shown", "/nsm/client/gui_is_hidden"])
        // The user opening and closing pages on their own: the manager hears changes only.
        sent = []
        client.report(guiShown: false)
        client.report(guiShown: true)
        client.report(guiShown: true)
        client.report(guiShown: false)
        #expect(sent == ["/nsm/client/gui_is_shown", "/nsm/client/gui_is_hidden"])
        let plain = Fixture()
        plain.client.report(guiShown: true)
        #expect(plain.takeSent() == [], "a client without :optional-gui: never reports a GUI")
        #expect(Fixture().client.afterAnnouncement().isEmpty, "nothing to say without :optional-gui:")
    }

    @Test(
        "only the manager's address is listened to",
        arguments: [
            ("127.0.0.1", 15000, true),
            ("127.0.1.1", 15000, true),  // Debian's address for the host name
            ("::ffff:127.0.0.1", 15000, true),
            ("127.0.0.1", 15001, false),
            ("192.168.1.9", 15000, false),
            ("not-an-address", 15000, false),
        ])
    func managerAddress(_ host: String, _ port: Int, _ accepted: Bool) {
        let manager = NSMManagerAddress(addresses: NSMManagerAddress.resolve("localhost"), port: 15000)
        #expect(manager.accepts(host: host, port: port) == accepted)
        let remote = NSMManagerAddress(addresses: [IPAddress("192.168.1.9")!], port: 15000)
        #expect(remote.accepts(host: "192.168.1.9", port: 15000))
        #expect(!remote.accepts(host: "127.0.0.1", port: 15000), "a local process is not a remote manager")
    }
}
