extension PixelBuffer {
    /// `area` of this picture as a buffer of its own that shares this one's memory: what is
    /// written into it lands in this picture. 4:2:0 areas start on even coordinates, so that
    /// each chroma sample belongs to the area or not as a whole.
    public func region(_ area: PixelRect) throws -> PixelBuffer {
        guard area.fits(width: width, height: height) else { throw PixelConversionError.cropOutside(area, width: width, height: height) }
        if format.isYUV, area.x % 2 != 0 || area.y % 2 != 0 { throw PixelConversionError.cropNotOnChromaGrid(area) }
        let views = planes.enumerated().map { index, plane in
            // Even origins: the plane size of the part before the area is where the area starts.
            let before = format.planeSize(index, width: area.x, height: area.y)
            let size = format.planeSize(index, width: area.width, height: area.height)
            return PixelPlane(baseAddress: plane.baseAddress + before.rows * plane.bytesPerRow + before.samplesPerRow * format.bytesPerSample,
                              bytesPerRow: plane.bytesPerRow, rowByteCount: size.samplesPerRow * format.bytesPerSample, rowCount: size.rows)
        }
        return try PixelBuffer(format: format, width: area.width, height: area.height, planes: views, matrix: matrix, range: range, owner: owner)
    }
}
