/// Finds which half of a VAP video without a `vapc` box holds the alpha: the alpha
/// region is gray (its chroma stays at 128), the colour region is not. Feed it a few
/// decoded 4:2:0 pictures, then read ``side``.
public struct VAPLayoutDetector: Sendable {
    /// Mean distance of chroma from 128 in each half, summed over the pictures added.
    private var colourfulness: [VAPLayout.AlphaSide: Double] = [:]
    private var pictures = 0

    /// A detector that has seen no picture yet.
    public init() {}

    /// Measures one picture (8-bit I420, NV12 or NV21).
    public mutating func add(_ picture: PixelBuffer) throws {
        guard [.i420, .nv12, .nv21].contains(picture.format) else { throw PixelConversionError.unsupportedFormat(picture.format.rawValue) }
        let chromaWidth = (picture.width + 1) / 2, chromaHeight = (picture.height + 1) / 2
        guard chromaWidth >= 2, chromaHeight >= 2 else { return }
        let interleaved = picture.format != .i420
        var sums: [VAPLayout.AlphaSide: Int] = [.left: 0, .right: 0, .top: 0, .bottom: 0]
        for row in 0..<chromaHeight {
            var left = 0, right = 0
            for column in 0..<chromaWidth {
                let distance: Int
                if interleaved {
                    let pair = picture.planes[1].row(row) + 2 * column
                    distance = abs(Int(pair[0]) - 128) + abs(Int(pair[1]) - 128)
                } else {
                    distance = abs(Int(picture.planes[1].row(row)[column]) - 128) + abs(Int(picture.planes[2].row(row)[column]) - 128)
                }
                if column < chromaWidth / 2 { left += distance } else if column >= chromaWidth - chromaWidth / 2 { right += distance }
            }
            sums[.left]! += left
            sums[.right]! += right
            if row < chromaHeight / 2 { sums[.top]! += left + right } else if row >= chromaHeight - chromaHeight / 2 { sums[.bottom]! += left + right }
        }
        let halfArea = Double(chromaWidth / 2 * chromaHeight), halfRows = Double(chromaWidth * (chromaHeight / 2))
        for (side, sum) in sums {
            colourfulness[side, default: 0] += Double(sum) / (side == .left || side == .right ? halfArea : halfRows)
        }
        pictures += 1
    }

    /// The half whose chroma is gray while its opposite half's is not; `nil` when no
    /// picture was added or no half stands out (both gray or both colourful).
    public var side: VAPLayout.AlphaSide? {
        guard pictures > 0 else { return nil }
        func mean(_ side: VAPLayout.AlphaSide) -> Double { colourfulness[side, default: 0] / Double(pictures) }
        let candidates: [(alpha: VAPLayout.AlphaSide, colour: VAPLayout.AlphaSide)] = [(.left, .right), (.right, .left), (.top, .bottom), (.bottom, .top)]
        // Gray: chroma within a level of 128 on average; colourful: several times more.
        let best = candidates.filter { mean($0.alpha) < 1.0 && mean($0.colour) > max(4 * mean($0.alpha), 1.5) }
            .min { mean($0.alpha) - mean($0.colour) < mean($1.alpha) - mean($1.colour) }
        return best?.alpha
    }
}
