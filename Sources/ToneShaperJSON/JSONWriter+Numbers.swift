import CNumberText

extension JSONWriter {
    /// A number as JSONEncoder wrote a document's numbers: whole numbers below 10^15 as
    /// integers (the original app's files have "duration": 10), others as Swift prints a
    /// Double (the shortest digits that read back exactly; an exponent below 10^-4 and
    /// above 2^53, "1e-05", "1.5e+16") without a trailing ".0".
    mutating func write(_ number: Double) {
        guard number.isFinite else {
            append("null")
            return
        }
        if number == number.rounded() && abs(number) < 1e15 {
            // -0 included: it is written "0", as before.
            writeInteger(Int64(number))
            return
        }
        if number < 0 { output.append(UInt8(ascii: "-")) }
        let magnitude = abs(number)
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 17) { buffer in
            var count = 0
            var exponent = 0
            if let (significand, decimals) = JSONWriter.fewDecimals(magnitude) {
                var rest = significand
                while rest > 0 {
                    buffer[count] = UInt8(ascii: "0") + UInt8(rest % 10)
                    rest /= 10
                    count += 1
                }
                var written = UnsafeMutableBufferPointer(rebasing: buffer[..<count])
                written.reverse()
                exponent = count - 1 - decimals
            } else {
                var cExponent: Int32 = 0
                count = Int(toneshaper_shortest_digits(magnitude, buffer.baseAddress!, &cExponent))
                exponent = Int(cExponent)
            }
            let digits = UnsafeBufferPointer(start: buffer.baseAddress!, count: count)
            layOut(digits, exponent: exponent, exponential: magnitude > 9_007_199_254_740_992 || exponent < -4)
        }
    }

    /// Most numbers in documents have a few decimals (1261.91), found here without the C
    /// library: `magnitude` is m / 10^k for the smallest k that gives an integer m below
    /// 10^15. That text reads back exactly (m and 10^k are exact doubles, and one division
    /// rounds correctly, as strtod does), and no other text of 15 digits or fewer does
    /// (they lie further apart than a double's spacing): these are %.15g's digits.
    private static func fewDecimals(_ magnitude: Double) -> (significand: UInt64, decimals: Int)? {
        var scale = 1.0
        for decimals in 1...22 {
            scale *= 10  // exact up to 10^22
            let scaled = magnitude * scale
            if scaled >= 1e15 { return nil }
            let significand = scaled.rounded()
            if significand / scale == magnitude { return (UInt64(significand), decimals) }
        }
        return nil
    }

    /// `digits` (d.ddd × 10^exponent) as plain decimals or in exponential form.
    private mutating func layOut(_ digits: UnsafeBufferPointer<UInt8>, exponent: Int, exponential: Bool) {
        if exponential {
            output.append(digits[0])
            if digits.count > 1 {
                output.append(UInt8(ascii: "."))
                output.append(contentsOf: digits[1...])
            }
            output.append(UInt8(ascii: "e"))
            output.append(exponent < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+"))
            if abs(exponent) < 10 { output.append(UInt8(ascii: "0")) }
            writeInteger(Int64(abs(exponent)))
        } else if exponent < 0 {
            append("0.")
            output.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: -exponent - 1))
            output.append(contentsOf: digits)
        } else if exponent >= digits.count - 1 {
            output.append(contentsOf: digits)
            output.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: exponent - (digits.count - 1)))
        } else {
            output.append(contentsOf: digits[...exponent])
            output.append(UInt8(ascii: "."))
            output.append(contentsOf: digits[(exponent + 1)...])
        }
    }

    mutating func writeInteger(_ value: Int64) {
        if value < 0 { output.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        let start = output.count
        repeat {
            output.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
            magnitude /= 10
        } while magnitude > 0
        output[start...].reverse()
    }
}
