import Foundation
import Synchronization

/// The generated parts of the manual's articles in `Sources/ToneShaperManual/ToneShaper.docc`:
/// text between a line `<!-- generated: NAME -->` and a line `<!-- end generated -->`, which
/// the code renders (`ReferenceTables` in the core, the OSC server's own addresses). The
/// tests that own a name compare each block of that name with the code's text, or, with
/// `TONESHAPER_UPDATE_REFERENCE=1`, write the code's text into the articles.
///
/// A block holds a blank line, the text, and a blank line: without the blank lines Markdown
/// would read the end marker as one more row of a table.
public enum GeneratedReference {
    /// One generated block as committed.
    public struct Block: Sendable {
        public let name: String
        /// The article's file name ("OSCReference.md").
        public let article: String
        /// Everything between the two marker lines.
        public let content: String
    }

    public struct FormatError: Error, CustomStringConvertible {
        public let description: String
    }

    /// The manual's DocC catalog, found from this file's place in the repository.
    public static let catalog = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/ToneShaperManual/ToneShaper.docc")

    /// Whether the articles should be rewritten rather than checked.
    public static var updateRequested: Bool { ProcessInfo.processInfo.environment["TONESHAPER_UPDATE_REFERENCE"] == "1" }

    /// What a block of `text` holds between its markers: the begin marker's newline, a
    /// blank line, the text (which ends with its own newline), a blank line.
    public static func content(_ text: String) -> String { "\n\n" + text + "\n" }

    /// Every generated block of every article, in file-name order.
    public static func blocks() throws -> [Block] {
        try articles().flatMap { url in try parse(String(contentsOf: url, encoding: .utf8), article: url.lastPathComponent).map(\.block) }
    }

    /// Writes `texts` (block name to text) into every block of those names and returns the
    /// articles it changed. Test suites run in parallel and two may own blocks in one
    /// article, so rewriting is serialised.
    public static func update(_ texts: [String: String]) throws -> [String] {
        try writing.withLock { _ in
            var changed: [String] = []
            for url in try articles() {
                let original = try String(contentsOf: url, encoding: .utf8)
                var updated = original
                // From the last block back, so earlier ranges stay valid.
                for found in try parse(original, article: url.lastPathComponent).reversed() {
                    guard let text = texts[found.block.name] else { continue }
                    updated.replaceSubrange(found.range, with: content(text))
                }
                if updated != original {
                    try updated.write(to: url, atomically: true, encoding: .utf8)
                    changed.append(url.lastPathComponent)
                }
            }
            return changed
        }
    }

    private static let writing = Mutex(())

    private static func articles() throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: catalog, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "md" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    private static let beginning = "<!-- generated: "
    private static let ending = "<!-- end generated -->"

    /// The blocks of one article, each with the range of its content in `text`.
    private static func parse(_ text: String, article: String) throws -> [(block: Block, range: Range<String.Index>)] {
        var found: [(block: Block, range: Range<String.Index>)] = []
        var open: (name: String, start: String.Index, line: Int)?
        var lineStart = text.startIndex
        var lineNumber = 1
        while lineStart < text.endIndex {
            let lineEnd = text[lineStart...].firstIndex(of: "\n") ?? text.endIndex
            let line = text[lineStart..<lineEnd].trimmingCharacters(in: .whitespaces)
            let next = lineEnd < text.endIndex ? text.index(after: lineEnd) : lineEnd
            if line.hasPrefix(beginning) && line.hasSuffix(" -->") {
                if let open { throw FormatError(description: "\(article):\(lineNumber): a generated block begins inside \"\(open.name)\"") }
                let name = String(line.dropFirst(beginning.count).dropLast(" -->".count)).trimmingCharacters(in: .whitespaces)
                // The content starts with the newline that ends the marker line.
                open = (name, lineEnd, lineNumber)
            } else if line == ending {
                guard let block = open else { throw FormatError(description: "\(article):\(lineNumber): an end marker without a beginning") }
                let range = block.start..<lineStart
                found.append((Block(name: block.name, article: article, content: String(text[range])), range))
                open = nil
            }
            lineStart = next
            lineNumber += 1
        }
        if let open { throw FormatError(description: "\(article):\(open.line): generated block \"\(open.name)\" has no end marker") }
        return found
    }
}
