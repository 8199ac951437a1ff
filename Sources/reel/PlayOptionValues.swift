import ArgumentParser
import Reel

// The values of `reel play`'s enumerated options, each parsed once by the argument
// parser: a bad value is refused with the option's name and the values it takes.

extension ClockMaster: ExpressibleByArgument {}

/// `--engine`: Reel's rules, or one engine alone.
enum EngineOption: String, ExpressibleByArgument, CaseIterable {
    case auto, ffmpeg, gstreamer

    var selection: EngineSelection {
        switch self {
        case .auto: .automatic
        case .ffmpeg: .ffmpeg
        case .gstreamer: .gstreamer
        }
    }
}

/// `--rotate`: auto (as the file's display matrix says), no (as decoded), N (exactly N
/// degrees clockwise) or +N (N more than the file says), N a multiple of 90.
struct RotateOption: ExpressibleByArgument {
    let rotation: VideoRotation

    init(_ rotation: VideoRotation) { self.rotation = rotation }

    init?(argument text: String) {
        switch text {
        case "auto": rotation = .automatic()
        case "no": rotation = .fixed(.upright)
        default:
            let adding = text.hasPrefix("+")
            guard let degrees = Int(adding ? String(text.dropFirst()) : text),
                  let orientation = PictureOrientation(clockwiseDegrees: degrees) else { return nil }
            rotation = adding ? .automatic(adding: orientation) : .fixed(orientation)
        }
    }

    var defaultValueDescription: String { "auto" }
}

/// `--tone-mapping`: a tone curve, or off.
struct ToneMappingOption: ExpressibleByArgument {
    let curve: ToneMapper.Curve?

    init(_ curve: ToneMapper.Curve?) { self.curve = curve }

    init?(argument text: String) {
        if text == "off" {
            curve = nil
        } else if let curve = ToneMapper.Curve(rawValue: text) {
            self.curve = curve
        } else {
            return nil
        }
    }

    static var allValueStrings: [String] { ToneMapper.Curve.allCases.map(\.rawValue) + ["off"] }
    var defaultValueDescription: String { curve?.rawValue ?? "off" }
}

extension DeinterlaceSetting: ExpressibleByArgument {}
extension DeinterlaceMode: ExpressibleByArgument {}
extension LoudnessNormalization: ExpressibleByArgument {}

/// `--overlay-cache`: a size in bytes (`256M`, `1G`: powers of 1024), or 0 for none.
struct ByteSizeOption: ExpressibleByArgument {
    let bytes: Int

    init(bytes: Int) { self.bytes = bytes }

    init?(argument text: String) {
        if text == "0" {
            bytes = 0
        } else if let size = RetentionPolicy.size(text) {
            bytes = Int(size)
        } else {
            return nil
        }
    }

    var defaultValueDescription: String { bytes % (1 << 20) == 0 ? "\(bytes >> 20)M" : "\(bytes)" }
}
