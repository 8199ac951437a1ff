import Foundation
import Reel

/// Parsing of `reel encode`'s values: rates with k/M/G suffixes and camera modes.
enum EncodeArguments {
    /// `2M`, `500k`, `2500000` → bits per second.
    static func bitRate(_ text: String, option: String) throws -> Int {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let multipliers: [Character: Double] = ["k": 1e3, "K": 1e3, "m": 1e6, "M": 1e6, "g": 1e9, "G": 1e9]
        var number = Substring(trimmed), multiplier = 1.0
        if let last = trimmed.last, let factor = multipliers[last] {
            number = trimmed.dropLast()
            multiplier = factor
        }
        guard let value = Double(number), value.isFinite else { throw fail("\(option): \(text) is not a rate such as 2M or 500k") }
        let bits = value * multiplier
        guard bits > 0 else { throw fail("\(option) must be positive, got \(text)") }
        guard bits <= 800e6 else { throw fail("\(option) \(text) is beyond 800M") }
        return Int(bits.rounded())
    }

    /// `1280x720@30` (the rate may be a fraction: `@30000/1001`).
    static func camera(_ text: String) throws -> (width: Int, height: Int, rate: Rational) {
        let parts = text.split(separator: "@")
        let size = parts.first?.split(separator: "x").compactMap { Int($0) } ?? []
        guard parts.count == 2, size.count == 2 else { throw fail("--camera takes WIDTHxHEIGHT@FPS, got \(text)") }
        return (size[0], size[1], try rate(String(parts[1]), option: "--camera"))
    }

    /// `30`, `29.97` or `30000/1001`.
    static func rate(_ text: String, option: String) throws -> Rational {
        let fraction = text.split(separator: "/").compactMap { Int($0) }
        if fraction.count == 2, fraction[0] > 0, fraction[1] > 0 { return Rational(fraction[0], fraction[1]) }
        guard let value = Double(text), value > 0, value <= 1000 else { throw fail("\(option): \(text) is not a frame rate") }
        return value == value.rounded() ? Rational(Int(value), 1) : Rational(Int((value * 1000).rounded()), 1000)
    }

    /// `1280x720`.
    static func size(_ text: String, option: String) throws -> (width: Int, height: Int) {
        let size = text.split(separator: "x").compactMap { Int($0) }
        guard size.count == 2 else { throw fail("\(option) takes WIDTHxHEIGHT, got \(text)") }
        return (size[0], size[1])
    }
}
