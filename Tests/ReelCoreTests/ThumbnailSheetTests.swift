import ReelCore
import Testing

@Suite struct ThumbnailSheetTests {
    @Test func timesAreEveryNSecondsUpToTheEnd() {
        #expect(ThumbnailSheet.times(duration: 35, every: 10) == [0, 10, 20, 30])
        #expect(ThumbnailSheet.times(duration: 30, every: 10) == [0, 10, 20])
        #expect(ThumbnailSheet.times(duration: 0, every: 10) == [0])
        #expect(ThumbnailSheet.times(duration: 100, every: 1, limit: 4) == [0, 25, 50, 75], "spread when over the limit")
        #expect(ThumbnailSheet.times(duration: .infinity, every: 10) == [0])
    }

    @Test func thumbnailsFillRowsThenSheets() {
        let sheet = ThumbnailSheet(width: 160, height: 90, columns: 3, rows: 2, times: (0..<8).map { Double($0) * 10 }, duration: 75)
        #expect(sheet.sheetCount == 2)
        #expect(sheet.place(of: 0) == (0, 0, 0) && sheet.place(of: 4) == (0, 160, 90) && sheet.place(of: 6) == (1, 0, 0))
        #expect(sheet.size(ofSheet: 0) == (480, 180) && sheet.size(ofSheet: 1) == (320, 90))
    }

    @Test func theIndexIsWebVTTWithARectanglePerCue() {
        let sheet = ThumbnailSheet(width: 160, height: 90, columns: 2, rows: 1, times: [0, 10, 20], duration: 25.5)
        #expect(sheet.webVTT { "sheet-\($0).jpg" } == """
            WEBVTT

            00:00:00.000 --> 00:00:10.000
            sheet-0.jpg#xywh=0,0,160,90

            00:00:10.000 --> 00:00:20.000
            sheet-0.jpg#xywh=160,0,160,90

            00:00:20.000 --> 00:00:25.500
            sheet-1.jpg#xywh=0,0,160,90

            """)
    }
}
