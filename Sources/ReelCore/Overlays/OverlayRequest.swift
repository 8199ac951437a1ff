/// What `reel play --overlay` asks for: `PATH[@START][,key=value…]`, keys `pos` (an
/// ``OverlayPlacement`` area), `scale`, `z`, `loops` (0: until stopped) and fusion content as
/// VAP names it (`sTxt1=Reel`, `sImg1=avatar.png`). `\,` is a comma inside a value.
public struct OverlayRequest: Sendable, Hashable {
    /// The VAP file.
    public var path: String
    /// The player's time to start at; nil starts at once.
    public var start: Double?
    /// Where it is drawn.
    public var placement = OverlayPlacement()
    /// Its drawing order.
    public var z = 0
    /// How many times it plays; 0 until stopped.
    public var loops = 1
    /// Fusion texts by source name (`[sTxt1]`).
    public var texts: [String: String] = [:]
    /// Fusion images by source name (`[sImg1]`): paths.
    public var images: [String: String] = [:]

    /// Reads the option's text; throws a line saying what is wrong.
    public init(parsing text: String) throws(OverlayRequestError) {
        var fields: [String] = [], current = "", escaped = false
        for character in text {
            if escaped {
                current.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "," {
                fields.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        fields.append(current)
        var head = fields.removeFirst()
        if let at = head.lastIndex(of: "@"), let start = Double(head[head.index(after: at)...]) {
            guard start.isFinite, start >= 0 else { throw .invalid(text, reason: "the start time must be a number of seconds from 0") }
            self.start = start
            head = String(head[..<at])
        }
        guard !head.isEmpty else { throw .invalid(text, reason: "no VAP file") }
        path = head
        var scale = 1.0, area = OverlayPlacement.Area.center
        for field in fields {
            guard let equals = field.firstIndex(of: "=") else { throw .invalid(text, reason: "'\(field)' is not key=value") }
            let key = String(field[..<equals]), value = String(field[field.index(after: equals)...])
            switch key {
            case "pos":
                guard let parsed = OverlayPlacement.area(parsing: value) else {
                    throw .invalid(text, reason: "pos is center, top, bottom, X:Y:W:H (video pixels) or X:Y:W:Hw (window pixels)")
                }
                area = parsed
            case "scale":
                guard let parsed = Double(value), parsed > 0, parsed <= 1 else { throw .invalid(text, reason: "scale is a number above 0, at most 1") }
                scale = parsed
            case "z":
                guard let parsed = Int(value), abs(parsed) <= 1000 else { throw .invalid(text, reason: "z is a whole number from -1000 to 1000") }
                z = parsed
            case "loops":
                guard let parsed = Int(value), (0...10_000).contains(parsed) else { throw .invalid(text, reason: "loops is a whole number from 0 (until stopped) to 10000") }
                loops = parsed
            default:
                guard key.hasPrefix("sTxt") || key.hasPrefix("sImg"), key.count > 4, key.dropFirst(4).allSatisfy(\.isNumber) else {
                    throw .invalid(text, reason: "unknown key '\(key)' (pos, scale, z, loops, sTxtN, sImgN)")
                }
                if key.hasPrefix("sTxt") { texts["[\(key)]"] = value } else { images["[\(key)]"] = value }
            }
        }
        placement = OverlayPlacement(area: area, scale: scale)
    }
}

/// Why an overlay request cannot be read.
public enum OverlayRequestError: Error, Equatable, CustomStringConvertible {
    /// The request's text, and what is wrong with it.
    case invalid(String, reason: String)

    /// One line for the user.
    public var description: String {
        switch self {
        case .invalid(let text, let reason): "--overlay '\(text)': \(reason)"
        }
    }
}
