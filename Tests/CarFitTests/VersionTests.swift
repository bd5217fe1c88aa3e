import CCarFit
@testable import CarFit
import XCTest

/// The version is written once, in the header's macros; the library and its parts read it.
final class VersionTests: XCTestCase {
    func testVersionIsTheHeadersMacros() {
        XCTAssertEqual(carfitVersion, CARFIT_VERSION)
        XCTAssertEqual(CARFIT_VERSION, "\(CARFIT_VERSION_MAJOR).\(CARFIT_VERSION_MINOR).\(CARFIT_VERSION_PATCH)")
    }

    func testBuiltLibraryReportsTheHeadersVersion() throws {
        let library = try BuiltLibrary()
        typealias VersionFn = @convention(c) () -> UnsafePointer<CChar>?
        let version = try library.function("carfit_version", VersionFn.self)()
        XCTAssertEqual(version.map { String(cString: $0) }, CARFIT_VERSION)
    }
}
