import Foundation
import XCTest
@testable import CarFitCore

/// `DisplayLocale` and `NameCollator` against the texts and orders Babel 2.18.0 and ICU 72 give
/// (`Tests/fixtures/locale/*.json`, written by scripts/gen-locale-fixtures).
final class LocaleTests: XCTestCase {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("fixtures/locale")

    struct Fixture {
        let locale: SupportedLocale
        let doc: [String: Any]
        func rows(_ key: String) -> [[String: Any]] { doc[key] as? [[String: Any]] ?? [] }
    }

    func fixtures() throws -> [Fixture] {
        try SupportedLocale.allCases.map { locale in
            let data = try Data(contentsOf: LocaleTests.fixtures.appendingPathComponent("\(locale.rawValue).json"))
            let doc = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            XCTAssertEqual(SupportedLocale(tag: try XCTUnwrap(doc["config"] as? String)), locale)
            return Fixture(locale: locale, doc: doc)
        }
    }

    func display(_ f: Fixture, _ style: String, currency: DisplayCurrency = .usd) -> DisplayLocale {
        DisplayLocale(locale: f.locale, hour24: style != "hour12", hour24Given: style != "default", currency: currency)
    }

    func testTimesOfDayInEachClockStyle() throws {
        for f in try fixtures() {
            XCTAssertEqual(f.rows("times").count, 20)
            for row in f.rows("times") {
                let minute = try XCTUnwrap(row["minute"] as? Int)
                for style in ["default", "hour24", "hour12"] {
                    XCTAssertEqual(display(f, style).timeText(minuteOfDay: minute), row[style] as? String,
                                   "\(f.locale) \(style) \(minute)")
                }
                // A request's own style counts as given, whatever the config says.
                XCTAssertEqual(display(f, "default").timeText(minuteOfDay: minute, hour24: true), row["hour24"] as? String)
                XCTAssertEqual(display(f, "hour24").timeText(minuteOfDay: minute, hour24: false), row["hour12"] as? String)
            }
        }
    }

    func testArticleDatesInAndOutsideTheCurrentYear() throws {
        for f in try fixtures() {
            for row in f.rows("dates") {
                let date = try XCTUnwrap(CivilDate(iso: try XCTUnwrap(row["date"] as? String)))
                let minute = try XCTUnwrap(row["minute"] as? Int)
                let year = try XCTUnwrap(row["currentYear"] as? Int)
                for style in ["default", "hour24", "hour12"] {
                    XCTAssertEqual(display(f, style).dateTimeText(date: date, minuteOfDay: minute, currentYear: year, hour24: nil),
                                   row[style] as? String, "\(f.locale) \(style) \(date)")
                }
            }
        }
    }

    func testMonthTitlesWeekdaysAndTheFirstDayOfTheWeek() throws {
        for f in try fixtures() {
            for row in f.rows("months") {
                let month = try XCTUnwrap(YearMonth(year: try XCTUnwrap(row["year"] as? Int), month: try XCTUnwrap(row["month"] as? Int)))
                XCTAssertEqual(display(f, "default").monthTitle(month), row["title"] as? String)
            }
            XCTAssertEqual(display(f, "default").weekdayNames, f.doc["weekdays"] as? [String])
            XCTAssertEqual(display(f, "default").firstWeekday?.rawValue, f.doc["firstWeekday"] as? String)
        }
    }

    func testAmountsInEveryCurrency() throws {
        for f in try fixtures() {
            XCTAssertEqual(f.rows("money").count, 6 * 22)
            for row in f.rows("money") {
                let cents = try XCTUnwrap(row["cents"] as? Int64)
                let currency = try XCTUnwrap(DisplayCurrency(code: try XCTUnwrap(row["currency"] as? String)))
                XCTAssertEqual(display(f, "default", currency: currency).moneyText(cents: Int128(cents)), row["text"] as? String,
                               "\(f.locale) \(currency) \(cents)")
            }
        }
    }

    /// Every pair of names of each list compares as ICU's collator ranks them.
    func testNameOrderAgreesWithICU() throws {
        for f in try fixtures() {
            let collator = f.locale.collator
            for list in f.rows("names") {
                let names = try XCTUnwrap(list["names"] as? [String])
                let ranks = try XCTUnwrap(list["ranks"] as? [Int])
                let keys = names.map(collator.key)
                for i in names.indices {
                    for j in names.indices {
                        let expected = ranks[i] < ranks[j] ? -1 : (ranks[i] > ranks[j] ? 1 : 0)
                        XCTAssertEqual(NameCollator.compare(keys[i], keys[j]), expected, "\(f.locale): \(names[i]) vs \(names[j])")
                    }
                }
            }
        }
    }

    /// Without a locale every text is the one of old, and no amount text is written.
    func testWithoutALocaleNothingChanges() {
        let plain = DisplayLocale(hour24: false)
        XCTAssertEqual(plain.timeText(minuteOfDay: 485), "08:05 AM")
        XCTAssertEqual(plain.timeText(minuteOfDay: 485, hour24: true), "08:05")
        XCTAssertNil(plain.moneyText(cents: 100))
        XCTAssertNil(plain.collator)
        XCTAssertNil(plain.firstWeekday)
        XCTAssertEqual(plain.monthTitle(YearMonth(year: 2026, month: 3)!), "March 2026")
    }

    func testEachPackedTableHasEveryField() {
        for table in [LocaleTables.enUS, .enGB, .da, .nb, .sv, .de] {
            XCTAssertEqual([table.dayPeriods.count, table.monthsFormat.count, table.monthsStandAlone.count, table.weekdays.count,
                            table.currencyParts.count, table.currencySymbols.count], [2, 12, 12, 7, 4, 6])
            XCTAssertFalse(table.currencySymbols.contains(""))
            XCTAssertEqual(table.currencySymbols[4], "€")
            XCTAssertTrue([0, 6].contains(table.firstWeekDay))
            XCTAssertTrue(table.dateTimeLong.contains("{1}") && table.dateTimeLong.contains("{0}"))
        }
        XCTAssertEqual(LocaleTables.packedFieldCount, 53)
    }

    func testTagsAreReadCaseInsensitivelyWithEitherSeparator() {
        XCTAssertEqual(SupportedLocale(tag: "EN_gb"), .enGB)
        XCTAssertEqual(SupportedLocale(tag: "no"), .nb)
        XCTAssertEqual(SupportedLocale(tag: "NB-no"), .nb)
        XCTAssertEqual(SupportedLocale(tag: "sv_SE"), .sv)
        XCTAssertEqual(SupportedLocale(tag: "en"), .enUS)
        XCTAssertNil(SupportedLocale(tag: "fr"))
        XCTAssertNil(SupportedLocale(tag: "en-"))
        XCTAssertNil(SupportedLocale(tag: "da-SE"))
        XCTAssertNil(DisplayCurrency(code: "CHF"))
    }
}
