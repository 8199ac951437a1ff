/// How a YUV picture's numbers turn into colours. The raw values are FFmpeg's names
/// (those `ffprobe` prints), so a description round-trips through any FFmpeg tool.
public struct ColorDescription: Sendable, Hashable, Codable {
    /// The YUV ⇄ RGB matrix (ffprobe's `color_space`).
    public var matrix: ColorMatrix
    /// Limited or full sample range (ffprobe's `color_range`).
    public var range: ColorRange
    /// The chromaticities of the primaries (ffprobe's `color_primaries`).
    public var primaries: ColorPrimaries
    /// The transfer characteristic (ffprobe's `color_transfer`).
    public var transfer: ColorTransfer

    /// A description; what is not given is unspecified, as in a stream that does not say.
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
    /// No matrix: the planes hold G, B and R (`gbr`).
    case rgb = "gbr"
    /// ITU-R BT.709, HD video.
    case bt709
    /// The stream does not say (`unknown`); players guess BT.601 below 720 lines, else BT.709.
    case unspecified = "unknown"
    /// FCC Title 47, an old US variant of BT.601.
    case fcc
    /// ITU-R BT.601 625-line (PAL); the same matrix as `smpte170m`.
    case bt470bg
    /// SMPTE 170M, BT.601 525-line (NTSC): SD video.
    case smpte170m
    /// SMPTE 240M, the 1990s HD matrix before BT.709.
    case smpte240m
    /// YCgCo, the lossless-friendly matrix of some screen content.
    case ycgco
    /// ITU-R BT.2020 non-constant luminance: UHD and HDR video.
    case bt2020nc
    /// ITU-R BT.2020 constant luminance.
    case bt2020c
    /// SMPTE ST 2085 (Y′D′zD′x).
    case smpte2085
    /// Derived from the primaries, non-constant luminance.
    case chromaDerivedNC = "chroma-derived-nc"
    /// Derived from the primaries, constant luminance.
    case chromaDerivedC = "chroma-derived-c"
    /// ITU-R BT.2100 ICtCp.
    case ictcp
}

/// Limited ("tv", 16–235) or full ("pc", 0–255) sample range (FFmpeg's `AVColorRange`).
public enum ColorRange: String, Sendable, Codable, CaseIterable {
    /// The stream does not say (`unknown`); YUV is then taken as limited.
    case unspecified = "unknown"
    /// Luma 16–235 and chroma 16–240 in 8 bits (`tv`): broadcast and most video.
    case limited = "tv"
    /// The whole 0–255 in 8 bits (`pc`): JPEG and most screen captures.
    case full = "pc"
}

/// The chromaticities of the RGB primaries (FFmpeg's `AVColorPrimaries`).
public enum ColorPrimaries: String, Sendable, Codable, CaseIterable {
    /// ITU-R BT.709 (and sRGB's).
    case bt709
    /// The stream does not say (`unknown`).
    case unspecified = "unknown"
    /// ITU-R BT.470 System M, the 1953 NTSC primaries.
    case bt470m
    /// ITU-R BT.470 System B/G and BT.601 625-line (PAL).
    case bt470bg
    /// SMPTE 170M, BT.601 525-line (NTSC).
    case smpte170m
    /// SMPTE 240M; the same primaries as `smpte170m`.
    case smpte240m
    /// Generic film (illuminant C).
    case film
    /// ITU-R BT.2020 wide gamut: UHD and HDR video.
    case bt2020
    /// SMPTE ST 428-1 (CIE 1931 XYZ), digital cinema distribution.
    case smpte428
    /// SMPTE RP 431-2, DCI-P3 with the DCI white.
    case smpte431
    /// SMPTE EG 432-1, Display P3 (D65 white).
    case smpte432
    /// EBU Tech. 3213-E (`jedec-p22`).
    case ebu3213 = "jedec-p22"
}

/// The transfer characteristic (FFmpeg's `AVColorTransferCharacteristic`).
public enum ColorTransfer: String, Sendable, Codable, CaseIterable {
    /// ITU-R BT.709, SDR video.
    case bt709
    /// The stream does not say (`unknown`).
    case unspecified = "unknown"
    /// A pure 2.2 gamma (BT.470 System M, `bt470m`).
    case gamma22 = "bt470m"
    /// A pure 2.8 gamma (BT.470 System B/G, `bt470bg`).
    case gamma28 = "bt470bg"
    /// SMPTE 170M, the BT.601 curve (the same as BT.709's).
    case smpte170m
    /// SMPTE 240M.
    case smpte240m
    /// Linear light.
    case linear
    /// Logarithmic over a 100:1 range.
    case log100 = "log100"
    /// Logarithmic over a 316:1 range (100 × √10).
    case log316 = "log316"
    /// IEC 61966-2-4, xvYCC.
    case iec61966_2_4 = "iec61966-2-4"
    /// ITU-R BT.1361 extended colour gamut.
    case bt1361e = "bt1361e"
    /// IEC 61966-2-1, sRGB.
    case srgb = "iec61966-2-1"
    /// ITU-R BT.2020 for 10-bit systems (the BT.709 curve).
    case bt2020_10 = "bt2020-10"
    /// ITU-R BT.2020 for 12-bit systems (the BT.709 curve).
    case bt2020_12 = "bt2020-12"
    /// SMPTE ST 2084, the perceptual quantizer of HDR10 (`smpte2084`).
    case pq = "smpte2084"
    /// SMPTE ST 428-1, digital cinema.
    case smpte428
    /// ARIB STD-B67, hybrid log-gamma (`arib-std-b67`).
    case hlg = "arib-std-b67"
}
