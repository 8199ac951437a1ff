import Testing
@testable import ReelCore

@Suite struct PixelBufferTests {
    @Test func layoutsAlignRowsAndRoundChromaUp() throws {
        let buffer = try PixelBuffer(format: .nv12, width: 33, height: 17)
        #expect(buffer.planes.count == 2)
        #expect(buffer.planes[0].bytesPerRow == 64 && buffer.planes[0].rowByteCount == 33 && buffer.planes[0].rowCount == 17)
        #expect(buffer.planes[1].rowByteCount == 34 && buffer.planes[1].rowCount == 9)
        #expect(Int(bitPattern: buffer.planes[1].baseAddress) % 64 == 0)
        let tenBit = try PixelBuffer(format: .i420p10, width: 3, height: 3)
        #expect(tenBit.planes.map(\.rowByteCount) == [6, 4, 4])
    }

    @Test func planesThatDoNotFitAreRejected() throws {
        let storage = HeapStorage(byteCount: 100)
        let tooNarrow = PixelPlane(baseAddress: storage.bytes.baseAddress!, bytesPerRow: 10, rowByteCount: 10, rowCount: 4)
        #expect(throws: PixelConversionError.self) {
            try PixelBuffer(format: .bgra, width: 4, height: 4, planes: [tooNarrow], owner: storage)
        }
        #expect(throws: PixelConversionError.self) {
            try PixelBuffer(format: .i420, width: 4, height: 4, planes: [tooNarrow], owner: storage)
        }
    }

    @Test func thePoolReusesMemoryOfItsShape() throws {
        let pool = PixelBufferPool(capacity: 2)
        var address: UnsafeMutableRawPointer?
        do {
            let first = try pool.makeBuffer(format: .bgra, width: 64, height: 32)
            address = first.planes[0].baseAddress
        }
        let second = try pool.makeBuffer(format: .bgra, width: 64, height: 32)
        #expect(second.planes[0].baseAddress == address)
        let other = try pool.makeBuffer(format: .i420, width: 64, height: 32)
        #expect(pool.allocatedCount == 2)
        _ = other
        // `second` is still held: one more buffer, then that one over and over.
        for _ in 0..<10 { _ = try pool.makeBuffer(format: .bgra, width: 64, height: 32) }
        #expect(pool.allocatedCount == 3)
        _ = second
    }

    /// Beyond its shape limit the pool lets the least recently asked-for shape go: its free
    /// buffers are freed, and one of it in use when it went is freed when done with.
    @Test func thePoolKeepsOnlyItsRecentShapes() throws {
        let pool = PixelBufferPool(capacity: 2, shapeLimit: 2)
        func use(_ width: Int) throws { _ = try pool.makeBuffer(format: .bgra, width: width, height: 8) }
        try use(16)
        try use(32)
        try use(16)
        #expect(pool.allocatedCount == 2, "both shapes kept")
        let held = try pool.makeBuffer(format: .bgra, width: 32, height: 8)
        try use(16)
        try use(64)   // a third shape: 32, the least recently asked for, goes
        _ = held      // given back after its shape went: freed, not kept
        try use(32)
        #expect(pool.allocatedCount == 4, "32 allocated again")
        try use(16)
        #expect(pool.allocatedCount == 5, "16 went when 32 came back")
    }

    /// The vectorised path (16 pixels at a time) against libswscale's formula written out
    /// with 64-bit integers, on every extreme of Y, U and V, for each matrix and range:
    /// the float trick must hold where the sums are largest.
    @Test(arguments: YUVMatrix.allCases)
    func extremesMatchTheIntegerFormula(matrix: YUVMatrix) throws {
        for range in [ColorRange.limited, .full] {
            let values: [UInt8] = [0, 16, 128, 235, 240, 255]
            var triples: [(UInt8, UInt8, UInt8)] = []
            for y in values { for u in values { for v in values { triples.append((y, u, v)) } } }
            // One triple per 2×2 block, 16 blocks per row: every row takes the vector path.
            let blocksPerRow = 16, rows = (triples.count + blocksPerRow - 1) / blocksPerRow
            let yuv = try PixelBuffer(format: .i420, width: blocksPerRow * 2, height: rows * 2, matrix: matrix, range: range)
            for (index, triple) in triples.enumerated() {
                let bx = index % blocksPerRow, by = index / blocksPerRow
                for dy in 0..<2 { for dx in 0..<2 { yuv.planes[0].row(by * 2 + dy)[bx * 2 + dx] = triple.0 } }
                yuv.planes[1].row(by)[bx] = triple.1
                yuv.planes[2].row(by)[bx] = triple.2
            }
            let rgb = try yuv.converted(to: .rgba)
            let c = YUVToRGBCoefficients(matrix: matrix, range: range)
            for (index, triple) in triples.enumerated() {
                let bx = index % blocksPerRow, by = index / blocksPerRow
                let y = Int64(triple.0) - Int64(c.lumaOffset), u = Int64(triple.1) - 128, v = Int64(triple.2) - 128
                func level(_ sum: Int64) -> UInt8 { UInt8(min(max((sum + 4096) >> 13, 0), 255)) }
                let expected = [level(y * Int64(c.yCoefficient) + v * Int64(c.vToR)),
                                level(y * Int64(c.yCoefficient) + v * Int64(c.vToG) + u * Int64(c.uToG)),
                                level(y * Int64(c.yCoefficient) + u * Int64(c.uToB))]
                let pixel = rgb.planes[0].row(by * 2) + bx * 8
                #expect([pixel[0], pixel[1], pixel[2]] == expected, "\(matrix) \(range) Y\(triple.0) U\(triple.1) V\(triple.2)")
            }
        }
    }
}

@Suite struct FrameMailboxTests {
    @Test func aFullMailboxDropsTheOldestAndCountsIt() {
        var mailbox = FrameMailbox<Int>(capacity: 2)
        for value in 1...5 { mailbox.put(value) }
        #expect(mailbox.droppedTotal == 3)
        let first = mailbox.take()
        #expect(first?.item == 4 && first?.droppedBefore == 3)
        let second = mailbox.take()
        #expect(second?.item == 5 && second?.droppedBefore == 0)
        #expect(mailbox.take() == nil)
        mailbox.put(6)
        mailbox.countDownstreamDrop()
        #expect(mailbox.take()?.droppedBefore == 1)
        #expect(mailbox.droppedTotal == 4)
    }
}
