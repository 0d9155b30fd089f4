import Foundation
import ToneShaperControl
import ToneShaperDSP
import ToneShaperJSON

/// `ToneShaperBench json`: reading and writing documents with ToneShaperJSON against
/// Foundation's JSONSerialization (to and from its trees of dictionaries, arrays, numbers
/// and strings), side by side, median of 5 runs, on the largest document under Sessions/
/// and on a synthetic document of about 1 MB.
func jsonBenchmark() {
    let sessions = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sessions")
    let files = (try? FileManager.default.contentsOfDirectory(atPath: sessions.path)) ?? []
    let largest = files.filter { $0.hasSuffix(".toneshaper") }
        .compactMap { name in (try? Data(contentsOf: sessions.appendingPathComponent(name))).map { (name, Array($0)) } }
        .max { $0.1.count < $1.1.count }
    print("processor: \(KernelLevel.processorName)")
    print("# JSON, microseconds per document (median of 5 runs): ToneShaperJSON / Foundation")
    if let (name, bytes) = largest { jsonCase("Sessions/\(name)", bytes) }
    jsonCase("synthetic document", syntheticDocument(bytes: 1 << 20))
}

private func jsonCase(_ name: String, _ bytes: [UInt8]) {
    let value = try! JSONValue.parse(bytes)
    let data = Data(bytes)
    let tree = foundationTree(value)
    // Enough repetitions for about 20 ms a run, so that the clock's grain does not count.
    let start = ContinuousClock.now
    _ = try! JSONValue.parse(bytes)
    let once = (ContinuousClock.now - start).nanoseconds / 1e9
    let repetitions = max(1, Int(0.02 / max(once, 1e-7)))
    func median(_ body: () -> Void) -> Double {
        var runs: [Double] = []
        for _ in 0..<5 {
            let start = ContinuousClock.now
            for _ in 0..<repetitions { body() }
            runs.append((ContinuousClock.now - start).nanoseconds / Double(repetitions) / 1e3)
        }
        return runs.sorted()[2]
    }
    let parse = median { _ = try! JSONValue.parse(bytes) }
    let decode = median { _ = try! JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) }
    let write = median { _ = value.serialized(pretty: true, sortedKeys: true) }
    let encode = median {
        _ = try! JSONSerialization.data(withJSONObject: tree, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
    }
    let megabytes = Double(bytes.count) / 1e6
    print("\(name), \(bytes.count) bytes:")
    print(
        String(
            format: "  read   %10.1f / %10.1f us  (%.0f / %.0f MB/s, %.1fx)", parse, decode, megabytes / parse * 1e6,
            megabytes / decode * 1e6, decode / parse))
    print(String(format: "  write  %10.1f / %10.1f us  (%.1fx)", write, encode, encode / write))
}

/// `value` as JSONSerialization's tree.
private func foundationTree(_ value: JSONValue) -> Any {
    switch value {
    case .null: return NSNull()
    case .bool(let flag): return flag
    case .number(let number): return number
    case .string(let text): return text
    case .array(let items): return items.map(foundationTree)
    case .object(let members): return members.mapValues(foundationTree)
    }
}

/// A tone shape with many points and notes of text around it: numbers as documents have
/// them (times and frequencies with a few decimals), keys, strings with escapes and accents.
private func syntheticDocument(bytes target: Int) -> [UInt8] {
    var random = SystemRandomNumberGenerator()
    var points: [JSONValue] = []
    var notes: [JSONValue] = []
    var object: [String: JSONValue] = [
        "name": .string("synthetic"), "duration": .number(600), "minFrequency": .number(20), "maxFrequency": .number(20_000),
        "componentType": .string("Sine"), "scaleType": .string("Two Step"),
    ]
    var size = 0
    while size < target {
        for _ in 0..<1000 {
            let time = Double(points.count) * 0.0125
            points.append(.array([.number(time), .number((Double.random(in: 20...20_000, using: &random) * 100).rounded() / 100)]))
        }
        for i in 0..<50 {
            notes.append(
                .object([
                    "at": .number(Double(notes.count) * 0.25), "text": .string("note \(i): \"quoted\", tab\t, é, 😀"),
                    "level": .number(Double.random(in: 0...1, using: &random)), "on": .bool(i % 2 == 0),
                ]))
        }
        object["points"] = .array(points)
        object["notes"] = .array(notes)
        size = JSONValue.object(object).serialized(pretty: true, sortedKeys: true).count
    }
    return JSONValue.object(object).serialized(pretty: true, sortedKeys: true)
}
