import Foundation
import JackTimeline
import Testing
import ToneShaperControl
import ToneShaperParameters
import ToneShaperTestSupport

extension WithJackServer {
    /// The node's web side with real clients: OSCQuery and control over HTTP (URLSession and
    /// raw TCP), the editor in headless Chromium with the WebSocket protocol (Python,
    /// Selenium), and what the node then plays, recorded with jack_capture.
    @Suite struct WebEditor {
        static let sirenDuration = 4.0

        static func startSiren(_ server: PrivateJackServer, _ extra: [String] = [], library: URL? = nil) async throws -> (NodeProcess, WebClient) {
            let node = try NodeProcess(
                ["siren", "--no-auto-connect", "--osc-port", "0", "--http-port", "0"] + extra, server: server,
                environment: library.map { ["TONESHAPER_LIBRARY": $0.path] } ?? [:])
            try await node.waitUntilReady()
            return (node, try await node.webClient())
        }

        @Test func oscQueryDescribesEveryParameterAndItsValue() async throws {
            let server = try PrivateJackServer()
            let (node, web) = try await Self.startSiren(server)
            #expect(node.editorURL?.hasPrefix("http://127.0.0.1:") == true)
            #expect(node.editorURL?.contains("token") == false, "loopback only: no token")

            let info = try #require(try await web.getJSON("/?HOST_INFO") as? [String: Any])
            #expect(info["NAME"] as? String == "toneshaper")
            #expect(info["OSC_PORT"] as? Int == node.oscPort)
            #expect(info["OSC_TRANSPORT"] as? String == "UDP")
            #expect((info["EXTENSIONS"] as? [String: Any])?["LISTEN"] as? Bool == true)

            let root = try #require(try await web.getJSON("/") as? [String: Any])
            for spec in ParameterTable.all {
                var node: [String: Any]? = root
                for part in ["toneshaper"] + spec.oscPath.split(separator: "/").map(String.init) {
                    node = (node?["CONTENTS"] as? [String: Any])?[part] as? [String: Any]
                }
                let found = try #require(node, "\(spec.oscPath) is in the namespace")
                #expect(found["FULL_PATH"] as? String == "/toneshaper/" + spec.oscPath)
                for key in ["TYPE", "VALUE", "ACCESS", "DESCRIPTION"] { #expect(found[key] != nil, "\(spec.oscPath) has \(key)") }
                if spec.unit == "Hz" { #expect(found["UNIT"] as? [String] == ["frequency.hz"]) }
            }
            let value = try #require(try await web.getJSON("/toneshaper/amplitude?VALUE") as? [String: Any])
            #expect((value["VALUE"] as? [Double])?.first == 0.3)
            let (status, _) = try await web.get("/toneshaper/no-such-thing")
            #expect(status == 404)
            #expect(await node.stop() == 0)
        }

        @Test func controlOverHTTPChangesTheNodeAndBadRequestsChangeNothing() async throws {
            let server = try PrivateJackServer()
            let (node, web) = try await Self.startSiren(server)
            #expect(try await web.post("/control/amplitude", "[0.5]").status == 200)
            #expect(try await web.post("/control/frequency/range", "[110, 880]").status == 200)
            let state = try #require(try await web.getJSON("/state") as? [String: Any])
            let parameters = try #require(state["parameters"] as? [String: Any])
            #expect(parameters["amplitude"] as? Double == 0.5)
            #expect(parameters["frequency/min"] as? Double == 110)
            // The OSC side sees the same node.
            let port = try #require(node.oscPort)
            let reply = try #require(try OSCDatagram.request(OSCDatagram.message("/toneshaper/state", []), toPort: port))
            #expect(
                reply.contains {
                    if case .float(let f) = $0 { return f == 0.5 }
                    return false
                })

            // Refusals: each says why, in the page's words, and nothing changes.
            let before = try await web.get("/state").body
            let refused = try await web.post("/control/frequency/min", "[2000]")
            #expect(refused.status == 400)
            #expect((refused.json["error"] as? String)?.contains("/toneshaper/frequency/min") == true)
            #expect((refused.json["error"] as? String)?.contains("set both ends") == true)
            #expect(try await web.post("/control/amplitude", "[0.5").status == 400)
            #expect(try await web.post("/control/nowhere", "[1]").status == 400)
            #expect(try await web.post("/control/points", "[0, 100, \"x\", 200]").status == 400)
            // A body too large is refused by its declared length, before it is read.
            let huge = try web.raw("POST /control/points HTTP/1.1\r\nHost: 127.0.0.1:\(web.port)\r\nContent-Length: 100000000\r\n\r\n[0,")
            #expect(huge.status == 413)
            // DNS rebinding: a name that is not this machine's.
            let rebound = try web.raw("GET /state HTTP/1.1\r\nHost: attacker.example:\(web.port)\r\n\r\n")
            #expect(rebound.status == 421)
            // Another site's page in the same browser.
            let foreign = try web.raw(
                "POST /control/amplitude HTTP/1.1\r\nHost: 127.0.0.1:\(web.port)\r\nOrigin: http://attacker.example\r\nContent-Length: 3\r\n\r\n[0]")
            #expect(foreign.status == 403)
            let websocket = try web.raw(
                "GET / HTTP/1.1\r\nHost: 127.0.0.1:\(web.port)\r\nOrigin: http://attacker.example\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
            )
            #expect(websocket.status == 403)
            #expect(try await web.get("/state").body == before)
            #expect(await node.stop() == 0)
        }

        @Test func exportsTheShapeWithTheRenderer() async throws {
            let server = try PrivateJackServer()
            let (node, web) = try await Self.startSiren(server)
            let (status, wav) = try await web.get("/export?cycles=2&format=wav")
            #expect(status == 200)
            #expect(wav.prefix(4) == Data("RIFF".utf8))
            // f32 mono: 2 cycles of 4 s at 48 kHz, plus the header.
            let frames = Int(2 * Self.sirenDuration * 48_000)
            #expect(wav.count >= frames * 4 && wav.count < frames * 4 + 200)
            let (flacStatus, flac) = try await web.get("/export?cycles=1&format=flac")
            #expect(flacStatus == 200 && flac.prefix(4) == Data("fLaC".utf8))
            #expect(try await web.get("/export?cycles=1000").status == 400, "longer than an export may be")
            #expect(try await web.get("/export?format=mp3").status == 400)
            #expect(await node.stop() == 0)
        }

        @Test func openedBeyondLoopbackTheURLCarriesAToken() async throws {
            let server = try PrivateJackServer()
            let (node, web) = try await Self.startSiren(server, ["--osc-host", "0.0.0.0"])
            let url = try #require(node.editorURL)
            let token = try #require(url.split(separator: "token=").last)
            #expect(token.count == 32 && token.allSatisfy(\.isHexDigit))
            // This machine needs none.
            #expect(try await web.get("/state").status == 200)
            #expect(await node.stop() == 0)

            let quiet = try NodeProcess(["--no-auto-connect", "--osc-port", "0", "--no-http"], server: server)
            try await quiet.waitUntilReady()
            // The ready lines are one write (JACK, MIDI, OSC and, with a web side, Editor):
            // once they are here, a missing Editor line is missing for good.
            #expect(quiet.editorURL == nil)
            #expect(await quiet.stop() == 0)
        }

        static var haveBrowser: Bool {
            ExternalTools.path(of: "chromium") != nil && ExternalTools.path(of: "chromedriver") != nil
                && ((try? ExternalTools.run("python3", ["-c", "import selenium, websocket"]).status) == 0)
        }

        /// The page in headless Chromium: draw, click, drag, double-click, undo, generated
        /// controls, a change from elsewhere; then the node plays what was drawn.
        @Test(.enabled(if: haveBrowser, "needs chromium, chromedriver and python3 with selenium (Scripts/setup.sh installs them)"))
        func theEditorDrawsWhatTheNodePlays() async throws {
            let server = try PrivateJackServer()
            let scratch = try ScratchDirectory()
            let (node, web) = try await Self.startSiren(server, library: scratch.url)
            let url = try #require(node.editorURL)
            let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .appendingPathComponent("../../Browser/editor_test.py").standardized.path
            let screenshot = scratch.url.appendingPathComponent("editor.png").path
            let result = try ExternalTools.run("python3", [script, url, "--screenshot", screenshot, "--save-as", "drawn"], timeout: 180)
            let last = result.output.split(separator: "\n").last.map(String.init) ?? ""
            #expect(result.status == 0, "\(last)")
            let report = try #require(try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any])
            let drawn = try #require((report["browser"] as? [String: Any])?["points"] as? [[Double]])
            #expect(drawn == [[0, 880], [Self.sirenDuration, 880]])
            #expect(FileManager.default.fileExists(atPath: screenshot))
            #expect(FileManager.default.fileExists(atPath: scratch.url.appendingPathComponent("drawn.toneshaper").path))

            // What the page drew is what /state says and what the node plays: 880 Hz.
            let state = try #require(try await web.getJSON("/state") as? [String: Any])
            #expect(state["points"] as? [[Double]] == drawn)
            let played = try await server.recordSteady(node.ports[0], seconds: 1, minimumClean: 9_600, into: scratch.url)
            let frequency = try played.frequency(atLeast: 9_600)
            #expect(abs(frequency - 880) < 0.5, "the node plays \(frequency) Hz")
            #expect(await node.stop() == 0)
        }
    }
}

extension WithJackServer.WebEditor {
    static var haveAvahiDaemon: Bool {
        ExternalTools.path(of: "avahi-browse") != nil && ((try? ExternalTools.run("avahi-daemon", ["-c"]).status) == 0)
    }

    /// With an avahi-daemon running, OSCQuery and OSC are announced under the client's name.
    @Test(.enabled(if: haveAvahiDaemon, "needs a running avahi-daemon and avahi-browse"))
    func announcesOSCQueryAndOSCOverMDNS() async throws {
        let server = try PrivateJackServer()
        let name = "ts-mdns-\(UInt32.random(in: 0...UInt32.max))"
        let (node, web) = try await Self.startSiren(server, ["--name", name])
        let oscPort = try #require(node.oscPort)
        var found = ""
        _ = await eventually(timeout: 5) {
            found = (try? ExternalTools.run("avahi-browse", ["-rtp", "_oscjson._tcp"], timeout: 4).output) ?? ""
            return found.contains(";\(name);") && found.contains(";\(web.port);")
        }
        #expect(found.contains(";\(name);_oscjson._tcp;") && found.contains(";\(web.port);"), "\(found)")
        let osc = (try? ExternalTools.run("avahi-browse", ["-rtp", "_osc._udp"], timeout: 4).output) ?? ""
        #expect(osc.contains(";\(name);_osc._udp;") && osc.contains(";\(oscPort);"), "\(osc)")
        #expect(await node.stop() == 0)
    }
}
