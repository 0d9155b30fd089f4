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
            var exponent: Int32 = 0
            let count = Int(toneshaper_shortest_digits(magnitude, buffer.baseAddress!, &exponent))
            let digits = UnsafeBufferPointer(start: buffer.baseAddress!, count: count)
            layOut(digits, exponent: Int(exponent), exponential: magnitude > 9_007_199_254_740_992 || exponent < -4)
        }
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
