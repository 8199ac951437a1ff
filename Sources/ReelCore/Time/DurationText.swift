import Foundation

/// A length of time as a user types it: `600` (seconds), `90s`, `10m`, `1h30m`, `2.5m`.
package enum DurationText {
    /// The seconds `text` says, or nil when it is not such a length: units from the largest
    /// down (h, m, s), each once; a bare number is seconds.
    package static func seconds(_ text: String) -> Double? {
        let scales: [Character: Double] = ["h": 3600, "m": 60, "s": 1]
        var total = 0.0, number = "", smallestScale = Double.infinity
        for character in text.trimmingCharacters(in: .whitespaces).lowercased() {
            if character.isASCII && (character.isNumber || character == ".") {
                number.append(character)
                continue
            }
            guard let scale = scales[character], scale < smallestScale, let value = Double(number) else { return nil }
            total += value * scale
            smallestScale = scale
            number = ""
        }
        if number.isEmpty { return smallestScale.isFinite ? total : nil }
        // A number after a unit ("1h30") says nothing of its own unit.
        return smallestScale.isFinite ? nil : Double(number)
    }
}
