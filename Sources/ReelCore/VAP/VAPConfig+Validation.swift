extension VAPConfig {
    /// Checks that sizes are positive and bounded, that the regions lie inside the video,
    /// that the colour region has the declared output size, and that every fusion entry
    /// names a known source, a frame that exists and rectangles inside their pictures.
    public func validate() throws {
        let maxSide = PixelBuffer.maxDimension
        func positive(_ value: Int, _ path: String) throws {
            guard value > 0, value <= maxSide else { throw VAPError.invalidField(path: path, reason: "\(value) is not in 1…\(maxSide)") }
        }
        func inside(_ rect: PixelRect, _ width: Int, _ height: Int, _ path: String, _ picture: String) throws {
            guard rect.fits(width: width, height: height) else {
                throw VAPError.invalidField(path: path, reason: "[\(rect.x), \(rect.y), \(rect.width), \(rect.height)] is not inside the \(width)x\(height) \(picture)")
            }
        }
        guard info.frameCount > 0, info.frameCount <= Self.maxFrameCount else {
            throw VAPError.invalidField(path: "info.f", reason: "\(info.frameCount) frames is not in 1…\(Self.maxFrameCount)")
        }
        try positive(info.width, "info.w")
        try positive(info.height, "info.h")
        try positive(info.videoWidth, "info.videoW")
        try positive(info.videoHeight, "info.videoH")
        if let fps = info.framesPerSecond, fps < 0 || fps > 240 {
            throw VAPError.invalidField(path: "info.fps", reason: "\(fps) is not in 0…240")
        }
        try inside(info.rgbFrame, info.videoWidth, info.videoHeight, "info.rgbFrame", "video")
        try inside(info.alphaFrame, info.videoWidth, info.videoHeight, "info.aFrame", "video")
        guard info.rgbFrame.width == info.width, info.rgbFrame.height == info.height else {
            throw VAPError.invalidField(path: "info.rgbFrame", reason: "its size \(info.rgbFrame.width)x\(info.rgbFrame.height) differs from w×h \(info.width)x\(info.height)")
        }
        var sourceIDs = Set<String>()
        for (index, source) in sources.enumerated() {
            guard sourceIDs.insert(source.id).inserted else { throw VAPError.invalidField(path: "src[\(index)].srcId", reason: "\(source.id) appears twice") }
            try positive(source.width, "src[\(index)].w")
            try positive(source.height, "src[\(index)].h")
            if let color = source.color, VAPColor(hex: color) == nil {
                throw VAPError.invalidField(path: "src[\(index)].color", reason: "\(color) is not #RRGGBB or #AARRGGBB")
            }
        }
        for (index, frame) in frames.enumerated() {
            guard frame.index >= 0, frame.index < info.frameCount else {
                throw VAPError.invalidField(path: "frame[\(index)].i", reason: "frame \(frame.index) is beyond the \(info.frameCount) frames")
            }
            for (objectIndex, object) in frame.objects.enumerated() {
                let path = "frame[\(index)].obj[\(objectIndex)]"
                guard sourceIDs.contains(object.sourceID) else { throw VAPError.invalidField(path: path + ".srcId", reason: "no source \(object.sourceID)") }
                try inside(object.frame, info.width, info.height, path + ".frame", "output")
                try inside(object.maskFrame, info.videoWidth, info.videoHeight, path + ".mFrame", "video")
                guard object.maskRotation == 0 || object.maskRotation == 90 else {
                    throw VAPError.invalidField(path: path + ".mt", reason: "\(object.maskRotation) is neither 0 nor 90")
                }
            }
        }
    }

    /// The fusion objects of frame `index`, lowest `z` first.
    public func objects(inFrame index: Int) -> [Object] {
        frames.filter { $0.index == index }.flatMap(\.objects).sorted { $0.z < $1.z }
    }

    /// The source with this `srcId`, if any.
    public func source(id: String) -> Source? { sources.first { $0.id == id } }
}
