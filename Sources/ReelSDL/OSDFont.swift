/// A 3×5 pixel font for the digits and signs of a time readout (`12:34 / 56:07  1.5x`),
/// so the on-screen display needs no font file.
enum OSDFont {
    static let width = 3
    static let height = 5

    /// Rows top to bottom, three bits each (4 = left column).
    static let glyphs: [Character: [UInt8]] = [
        "0": [7, 5, 5, 5, 7], "1": [2, 6, 2, 2, 7], "2": [7, 1, 7, 4, 7], "3": [7, 1, 7, 1, 7],
        "4": [5, 5, 7, 1, 1], "5": [7, 4, 7, 1, 7], "6": [7, 4, 7, 5, 7], "7": [7, 1, 1, 2, 2],
        "8": [7, 5, 7, 5, 7], "9": [7, 5, 7, 1, 7], ":": [0, 2, 0, 2, 0], "/": [1, 1, 2, 4, 4],
        ".": [0, 0, 0, 0, 2], "x": [0, 5, 2, 5, 0], "-": [0, 0, 7, 0, 0], " ": [0, 0, 0, 0, 0],
    ]

    /// The filled cells of `text`, as (column, row) in font pixels.
    static func cells(_ text: String) -> [(x: Int, y: Int)] {
        var cells: [(Int, Int)] = []
        for (index, character) in text.enumerated() {
            guard let rows = glyphs[character] else { continue }
            for (row, bits) in rows.enumerated() {
                for column in 0..<width where bits & (4 >> column) != 0 {
                    cells.append((index * (width + 1) + column, row))
                }
            }
        }
        return cells
    }

    /// `m:ss` or `h:mm:ss`.
    static func clock(_ seconds: Double) -> String {
        let total = Int(max(seconds, 0))
        let (hours, minutes, secs) = (total / 3600, total / 60 % 60, total % 60)
        let twoDigits = { (value: Int) in value < 10 ? "0\(value)" : "\(value)" }
        return hours > 0 ? "\(hours):\(twoDigits(minutes)):\(twoDigits(secs))" : "\(minutes):\(twoDigits(secs))"
    }
}
