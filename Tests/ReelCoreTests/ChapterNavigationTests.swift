import Testing
@testable import ReelCore

@Suite struct ChapterNavigationTests {
    static func chapter(_ start: Double, _ end: Double, _ title: String) -> Chapter {
        Chapter(id: Int64(start), timeBase: Rational(1, 1000), start: Int64(start * 1000), end: Int64(end * 1000), tags: ["title": title])
    }

    // Given out of order: navigation sorts them.
    let navigation = ChapterNavigation([Self.chapter(60, 120, "Middle"), Self.chapter(0, 60, "Opening"), Self.chapter(120, 180, "End")])

    @Test func theChapterHoldingAPosition() {
        #expect(navigation.chapters.map(\.title) == ["Opening", "Middle", "End"])
        #expect(navigation.index(at: 0) == 0 && navigation.index(at: 59.9) == 0 && navigation.index(at: 60) == 1)
        #expect(navigation.index(at: 59.9995) == 1, "a frame's rounding away from the start counts as in it")
        #expect(navigation.index(at: 500) == 2)
        #expect(ChapterNavigation([Self.chapter(10, 20, "Late")]).index(at: 5) == nil)
    }

    @Test func nextAndPreviousAsMPVDoesThem() {
        #expect(navigation.target(from: 10, steps: 1) == 1)
        #expect(navigation.target(from: 130, steps: 1) == nil, "past the last chapter: the end")
        #expect(navigation.target(from: 62, steps: -1) == 0, "near a chapter's start, back to the one before")
        #expect(navigation.target(from: 90, steps: -1) == 1, "well into a chapter, back to its start")
        #expect(navigation.target(from: 2, steps: -1) == 0)
        #expect(navigation.target(from: 10, steps: 5) == nil)
        #expect(navigation.target(from: 170, steps: -5) == 0)
        #expect(ChapterNavigation([]).target(from: 10, steps: 1) == nil)
    }
}
