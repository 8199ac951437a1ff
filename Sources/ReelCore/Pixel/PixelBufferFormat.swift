/// The picture layouts a ``PixelBuffer`` holds, named as FFmpeg names them.
public enum PixelBufferFormat: String, Sendable, CaseIterable, Codable {
    /// 8-bit Y, U and V planes, chroma halved both ways (`yuv420p`, I420).
    case i420 = "yuv420p"
    /// 8-bit Y plane and one plane of interleaved U, V (`nv12`).
    case nv12
    /// 8-bit Y plane and one plane of interleaved V, U (`nv21`).
    case nv21
    /// 10-bit I420 in little-endian 16-bit words (`yuv420p10le`).
    case i420p10 = "yuv420p10le"
    /// 8-bit blue, green, red, alpha, one plane.
    case bgra
    /// 8-bit red, green, blue, alpha, one plane.
    case rgba

    /// The FFmpeg name (`yuv420p`, `nv12`…).
    public var pixelFormat: PixelFormat { PixelFormat(rawValue) }

    /// The format for an FFmpeg layout, where Reel handles it itself (`yuvj420p` is I420
    /// in full range).
    public init?(_ format: PixelFormat) {
        if format == .yuvj420p { self = .i420; return }
        self.init(rawValue: format.rawValue)
    }

    /// Whether the format holds luma and chroma (else packed RGB).
    public var isYUV: Bool { self != .bgra && self != .rgba }

    /// Planes of samples: Y, then chroma.
    public var planeCount: Int {
        switch self {
        case .i420, .i420p10: 3
        case .nv12, .nv21: 2
        case .bgra, .rgba: 1
        }
    }

    /// Bytes per sample: 2 for 10-bit formats, else 1.
    public var bytesPerSample: Int { self == .i420p10 ? 2 : 1 }

    /// Samples per row and rows of `plane` for a `width`×`height` picture (odd sizes
    /// round chroma up, as FFmpeg does).
    public func planeSize(_ plane: Int, width: Int, height: Int) -> (samplesPerRow: Int, rows: Int) {
        let chromaWidth = (width + 1) / 2, chromaHeight = (height + 1) / 2
        switch (self, plane) {
        case (.bgra, _), (.rgba, _): return (width * 4, height)
        case (_, 0): return (width, height)
        case (.nv12, _), (.nv21, _): return (chromaWidth * 2, chromaHeight)
        default: return (chromaWidth, chromaHeight)
        }
    }
}

/// The YUV ⇄ RGB matrices Reel converts with.
public enum YUVMatrix: String, Sendable, CaseIterable, Codable {
    /// ITU-R BT.601 (SD, and untagged video).
    case bt601
    /// ITU-R BT.709 (HD).
    case bt709
    /// ITU-R BT.2020 non-constant luminance (UHD, HDR).
    case bt2020

    /// The matrix for a stream's tag: BT.601 when untagged, as FFmpeg assumes.
    public init(_ matrix: ColorMatrix) {
        switch matrix {
        case .bt709: self = .bt709
        case .bt2020nc, .bt2020c: self = .bt2020
        default: self = .bt601
        }
    }
}
