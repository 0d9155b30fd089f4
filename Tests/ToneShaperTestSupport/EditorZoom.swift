import Foundation

/// The editor window's zoom control as the window tests use it in every host (CLAP, VST 3,
/// LV2): where the button is, the sizes its steps ask the host for, and the windows on a
/// private X display, found and looked at with xdotool and xshot.
public enum EditorZoom {
    /// The window's size at each step of the control (100, 125, 150 %) at the host's scale 1:
    /// 900 × 420 times the zoom.
    public static let sizes = [(width: 900, height: 420), (width: 1125, height: 525), (width: 1350, height: 630)]

    /// The middle of the zoom button in a window drawn at `scale` (EditorWindow's toolbar:
    /// buttons of 96 × 21 from 5 down, 102 apart from the plot's left edge at 52; the zoom
    /// the fifth).
    public static func button(scale: Double) -> (x: Int, y: Int) {
        (Int(((52 + 4 * 102 + 48) * scale).rounded()), Int(((5 + 10.5) * scale).rounded()))
    }

    /// A window on the X display `display`, where it is and its size.
    public struct Window: CustomStringConvertible, Sendable {
        public let id: String
        public let x: Int
        public let y: Int
        public let width: Int
        public let height: Int
        public var description: String { "window \(id) at \(x),\(y) \(width)x\(height)" }
    }

    static func xdotool(_ arguments: [String], display: String) throws -> ToolResult {
        try ToolResult.run(try TestTools.require("xdotool"), arguments, environment: ["DISPLAY": display], timeout: 60)
    }

    /// The first visible window whose name matches `pattern` (nil when there is none).
    public static func window(named pattern: String, display: String) throws -> Window? {
        let found = try xdotool(["search", "--onlyvisible", "--name", pattern], display: display)
        guard found.status == 0, let id = found.stdout.split(separator: "\n").first.map(String.init) else { return nil }
        return try geometry(of: id, display: display)
    }

    /// Where window `id` is on the screen and its size (nil when it is gone).
    public static func geometry(of id: String, display: String) throws -> Window? {
        let geometry = try xdotool(["getwindowgeometry", "--shell", id], display: display)
        guard geometry.status == 0 else { return nil }
        var values: [String: Int] = [:]
        for line in geometry.stdout.split(separator: "\n") {
            let parts = line.split(separator: "=")
            if parts.count == 2 { values[String(parts[0])] = Int(parts[1]) }
        }
        guard let x = values["X"], let y = values["Y"], let width = values["WIDTH"], let height = values["HEIGHT"] else { return nil }
        return Window(id: id, x: x, y: y, width: width, height: height)
    }

    /// The top-level window that holds window `id` (itself when it is one), its size: a
    /// host's own window, whatever it is named (xwininfo's tree, walked up to the root).
    public static func topLevel(of id: String, display: String) throws -> Window? {
        var current = id
        for _ in 0..<32 {
            let tree = try ToolResult.run(
                try TestTools.require("xwininfo"), ["-tree", "-id", current], environment: ["DISPLAY": display], timeout: 60)
            guard tree.status == 0 else { return nil }
            func window(after label: String) -> String? {
                tree.stdout.split(separator: "\n").first { $0.contains(label) }?.split(separator: " ").first { $0.hasPrefix("0x") }.map(String.init)
            }
            guard let root = window(after: "Root window id:"), let parent = window(after: "Parent window id:") else { return nil }
            if parent == root { break }
            current = parent
        }
        return try geometry(of: current, display: display)
    }

    /// The zoom control clicked twice in the editor window (100 → 125 → 150 %), each click
    /// at the button's place at the zoom then (the editor found again first: a host may
    /// move it as it grows); after each, `resized` waits for the host's answer to the size
    /// the step asks for.
    public static func stepTo150(display: String, resized: (_ width: Int, _ height: Int) throws -> Void) throws {
        for (step, scale) in [1.0, 1.25].enumerated() {
            guard let editor = try window(named: "^ToneShaper editor$", display: display) else {
                throw XServerError("no editor window to click the zoom control of")
            }
            let at = button(scale: scale)
            let click = try xdotool(["mousemove", "--sync", "\(editor.x + at.x)", "\(editor.y + at.y)", "click", "1"], display: display)
            guard click.status == 0 else { throw XServerError("xdotool click: \(click.output)") }
            try resized(sizes[step + 1].width, sizes[step + 1].height)
        }
    }

    /// The share of the pixels of `window` (or of the rectangle `box` of it: x, y, width,
    /// height) that differ from its first pixel's color (xshot), written as a PNG to `file`:
    /// near 0 for a window, or a part of it, that was never drawn (all black).
    public static func drawnShare(_ file: URL, window: String, box: [Int] = [], display: String) throws -> Double {
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        let result = try ToolResult.run(
            try TestTools.xshot().path, [file.path, window] + box.map(String.init), environment: ["DISPLAY": display], timeout: 60)
        guard result.status == 0, let share = Double(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw XServerError("xshot \(file.path) (status \(result.status)): \(result.output)")
        }
        return share
    }
}
