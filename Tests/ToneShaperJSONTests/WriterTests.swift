import Testing
import ToneShaperJSON

/// What the writer makes of values: the text itself, as a reader of a saved file sees it.
@Suite struct WriterTests {
    func text(_ value: JSONValue, pretty: Bool = false) -> String {
        String(decoding: value.serialized(pretty: pretty, sortedKeys: true), as: UTF8.self)
    }

    @Test func numbersTakeTheFewestDigitsThatReadBack() {
        let cases: [(Double, String)] = [
            (0, "0"), (-0.0, "0"), (1, "1"), (-1, "-1"), (440, "440"), (0.1, "0.1"), (0.25, "0.25"), (-2.5, "-2.5"),
            (1.0 / 3, "0.3333333333333333"), (2.0 / 3, "0.6666666666666666"), (1e308, "1e+308"), (.leastNonzeroMagnitude, "5e-324"),
            (.greatestFiniteMagnitude, "1.7976931348623157e+308"), (.leastNormalMagnitude, "2.2250738585072014e-308"),
            (9_007_199_254_740_992, "9007199254740992"), (9_007_199_254_740_994, "9.007199254740994e+15"),
            (999_999_999_999_999, "999999999999999"), (1e15, "1000000000000000"), (1e16, "1e+16"), (1.5e16, "1.5e+16"),
            (0.0001, "0.0001"), (0.00012, "0.00012"), (1e-5, "1e-05"), (-1.5e-7, "-1.5e-07"), (123_456_789.125, "123456789.125"),
            (0.1 + 0.2, "0.30000000000000004"), (1261.91, "1261.91"), (100.5, "100.5"),
        ]
        for (number, expected) in cases {
            #expect(text(.number(number)) == expected, "\(number)")
        }
    }

    @Test func numbersJSONCannotHoldAreWrittenAsNull() {
        #expect(text(.array([.number(.nan), .number(.infinity), .number(-.infinity)])) == "[null,null,null]")
    }

    @Test func stringsEscapeOnlyWhatJSONRequires() {
        let value = JSONValue.string("\"\\/\u{8}\u{C}\n\r\t\u{0}\u{1}\u{1F}\u{7F} é€😀\u{2028}")
        #expect(text(value) == #""\"\\/\b\f\n\r\t\u0000\u0001\u001f"# + "\u{7F} é€😀\u{2028}\"")
    }

    @Test func prettyTextIsIndentedByTwoWithSpacedColons() {
        let value = JSONValue.object([
            "points": .array([.array([.number(0), .number(220)]), .array([.number(0.5), .number(330)])]),
            "name": .string("x"), "empty": .array([]), "none": .object([:]), "flag": .bool(true), "gap": .null,
        ])
        #expect(
            text(value, pretty: true) == """
                {
                  "empty" : [

                  ],
                  "flag" : true,
                  "gap" : null,
                  "name" : "x",
                  "none" : {

                  },
                  "points" : [
                    [
                      0,
                      220
                    ],
                    [
                      0.5,
                      330
                    ]
                  ]
                }
                """)
        #expect(text(value) == #"{"empty":[],"flag":true,"gap":null,"name":"x","none":{},"points":[[0,220],[0.5,330]]}"#)
        #expect(text(.array([])) == "[]" && text(.object([:]), pretty: true) == "{\n\n}")
    }

    @Test func keysSortByTheirBytes() throws {
        let value = JSONValue.object(["b": .null, "B": .null, "a10": .null, "a2": .null, "é": .null, "f": .null, "😀": .null, "\u{FFFF}": .null])
        #expect(text(value) == "{\"B\":null,\"a10\":null,\"a2\":null,\"b\":null,\"f\":null,\"é\":null,\"\u{FFFF}\":null,\"😀\":null}")
        // Unsorted, the members are all there, in the dictionary's order.
        let unsorted = value.serialized()
        #expect(unsorted.count == value.serialized(sortedKeys: true).count)
        #expect(try JSONValue.parse(unsorted) == value)
    }
}
