/// How a YUV picture's numbers turn into colours. The raw values are FFmpeg's names
/// (those `ffprobe` prints), so a description round-trips through any FFmpeg tool.
public struct ColorDescription: Sendable, Hashable, Codable {
    public var matrix: ColorMatrix
    public var range: ColorRange
    public var primaries: ColorPrimaries
    public var transfer: ColorTransfer

    public init(matrix: ColorMatrix = .unspecified, range: ColorRange = .unspecified,
                primaries: ColorPrimaries = .unspecified, transfer: ColorTransfer = .unspecified) {
        self.matrix = matrix
        self.range = range
        self.primaries = primaries
        self.transfer = transfer
    }
}

/// The YUV ⇄ RGB matrix (FFmpeg's `AVColorSpace`).
public enum ColorMatrix: String, Sendable, Codable, CaseIterable {
    case rgb = "gbr", bt709, unspecified = "unknown", fcc, bt470bg, smpte170m, smpte240m, ycgco
    case bt2020nc, bt2020c, smpte2085, chromaDerivedNC = "chroma-derived-nc"
    case chromaDerivedC = "chroma-derived-c", ictcp
}

/// Limited ("tv", 16–235) or full ("pc", 0–255) sample range (FFmpeg's `AVColorRange`).
public enum ColorRange: String, Sendable, Codable, CaseIterable {
    case unspecified = "unknown", limited = "tv", full = "pc"
}

/// The chromaticities of the RGB primaries (FFmpeg's `AVColorPrimaries`).
public enum ColorPrimaries: String, Sendable, Codable, CaseIterable {
    case bt709, unspecified = "unknown", bt470m, bt470bg, smpte170m, smpte240m, film, bt2020
    case smpte428, smpte431, smpte432, ebu3213 = "jedec-p22"
}

/// The transfer characteristic (FFmpeg's `AVColorTransferCharacteristic`).
public enum ColorTransfer: String, Sendable, Codable, CaseIterable {
    case bt709, unspecified = "unknown", gamma22 = "bt470m", gamma28 = "bt470bg", smpte170m, smpte240m
    case linear, log100 = "log100", log316 = "log316", iec61966_2_4 = "iec61966-2-4", bt1361e = "bt1361e"
    case srgb = "iec61966-2-1", bt2020_10 = "bt2020-10", bt2020_12 = "bt2020-12"
    case pq = "smpte2084", smpte428, hlg = "arib-std-b67"
}
