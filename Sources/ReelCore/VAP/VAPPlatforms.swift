/// Which of VAP's players can decode a file's video: Tencent's Android, iOS and web
/// players all hand it to the platform's decoder, and each platform's decoders have
/// their own limits (`reel vap info`, `reel vap pack`'s warning).
public enum VAPPlatforms {
    /// The longest edge Android's hardware decoders are safe with: VAP's maintainers
    /// advise 1504 pixels, as larger videos fail on many devices (Tencent/vap#258).
    public static let androidMaxEdge = 1504
    /// The most macroblocks an H.264 picture has at level 5.1 (4096×2304), where
    /// iOS's and browsers' decoders stop.
    public static let h264MaxMacroblocks = 36_864

    /// One platform's answer for a file.
    public struct Verdict: Sendable, Equatable {
        /// `Android`, `iOS` or `web`.
        public let platform: String
        /// Whether the platform's decoders play the file.
        public let isSafe: Bool
        /// Why not, or a condition the platform must meet; nil when there is none.
        public let reason: String?
    }

    /// Each platform's answer for a `codec` video (`h264` or `hevc`, as ``VAPFile/codec``
    /// says) of `width`×`height`.
    public static func verdicts(codec: String, width: Int, height: Int) -> [Verdict] {
        let isHEVC = codec == "hevc"
        let longest = max(width, height)
        let macroblocks = ((width + 15) / 16) * ((height + 15) / 16)
        let overLevel = isHEVC || macroblocks <= h264MaxMacroblocks ? nil
            : "\(width)x\(height) is over H.264 level 5.1's \(h264MaxMacroblocks) macroblocks"
        let android: Verdict = if longest > androidMaxEdge {
            Verdict(platform: "Android", isSafe: false,
                    reason: "\(longest) px on the longest edge; many Android decoders fail over \(androidMaxEdge) (reel vap pack --max-edge \(androidMaxEdge))")
        } else if isHEVC {
            Verdict(platform: "Android", isSafe: false, reason: "H.265: not every Android device decodes it; H.264 plays on all")
        } else {
            Verdict(platform: "Android", isSafe: true, reason: nil)
        }
        let iOS = Verdict(platform: "iOS", isSafe: overLevel == nil, reason: overLevel ?? (isHEVC ? "H.265 from iOS 11 on" : nil))
        let web = Verdict(platform: "web", isSafe: !isHEVC && overLevel == nil,
                          reason: isHEVC ? "H.265: browsers without an HEVC decoder (Firefox, Chrome without hardware support) cannot play it" : overLevel)
        return [android, iOS, web]
    }

    /// The verdicts on one line: `Android yes; iOS yes; web no (…)`.
    public static func summary(_ verdicts: [Verdict]) -> String {
        verdicts.map { "\($0.platform) \($0.isSafe ? "yes" : "no")" + ($0.reason.map { " (\($0))" } ?? "") }.joined(separator: "; ")
    }
}
