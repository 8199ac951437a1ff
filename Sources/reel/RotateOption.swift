import Reel

/// `--rotate`: auto (as the file says), no (as decoded), N (exactly N degrees clockwise),
/// +N (N more than the file says, mpv's `--video-rotate`); N a multiple of 90.
enum RotateOption {
    static func parse(_ text: String) -> VideoRotation? {
        switch text {
        case "auto": return .automatic()
        case "no": return .fixed(.upright)
        default:
            let adding = text.hasPrefix("+")
            guard let degrees = Int(adding ? String(text.dropFirst()) : text),
                  let orientation = PictureOrientation(clockwiseDegrees: degrees) else { return nil }
            return adding ? .automatic(adding: orientation) : .fixed(orientation)
        }
    }
}
