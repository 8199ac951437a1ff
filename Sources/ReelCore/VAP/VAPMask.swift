/// A fusion mask drawn as a picture of the animation's size: where it is white and
/// opaque the source shows fully (strength = red × alpha, the red of the premultiplied
/// picture). `reel vap pack` keeps the box
/// around its non-zero part, which becomes the object's `frame`, and the strengths inside,
/// which go into the video as the mask (`mFrame`).
package struct VAPMask: Sendable, Equatable {
    /// Where the mask is on, in output pixels.
    package let box: PixelRect
    /// Strengths inside `box`, row after row.
    package let strength: [UInt8]

    /// The mask in `picture` (premultiplied RGBA); `nil` when it is empty.
    package init?(picture: PixelBuffer) {
        precondition(picture.format == .rgba)
        var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1
        func strengthAt(_ x: Int, _ y: Int) -> UInt8 {
            picture.planes[0].row(y)[4 * x]
        }
        for y in 0..<picture.height {
            for x in 0..<picture.width where strengthAt(x, y) > 0 {
                minX = min(minX, x); maxX = max(maxX, x)
                minY = min(minY, y); maxY = max(maxY, y)
            }
        }
        guard maxX >= 0 else { return nil }
        box = PixelRect(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1)
        var values = [UInt8]()
        values.reserveCapacity(box.width * box.height)
        for y in minY...maxY { for x in minX...maxX { values.append(strengthAt(x, y)) } }
        strength = values
    }
}
