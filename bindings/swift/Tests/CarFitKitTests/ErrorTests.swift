import CarFitKit
import Foundation
import Testing

/// Every status a host can provoke arrives as a CarFitError with the error document's members.
@Suite struct ErrorTests {
    @Test func badJSON() async throws {
        let core = try Core(configJSON: dayConfig())
        let error = await failure { try await core.call("visits.list", "{\"dates\": [") }
        #expect(error?.status == .badJson)
        #expect(error?.code == "bad_json")
        #expect(error?.details?.line != nil)
    }

    @Test func invalidNamesTheField() async throws {
        let core = try Core(configJSON: dayConfig())
        // A state the contract does not list cannot be written as a VisitsSetStateRequest: sent as JSON.
        let error = await failure { try await core.call("visits.set_state", "{\"key\": \"x\", \"state\": \"Sleeping\"}") }
        #expect(error?.status == .invalid)
        #expect(error?.field == "state")
        #expect(error?.message.isEmpty == false)
    }

    @Test func invalidConfigAtOpen() {
        #expect(throws: CarFitError.self) { try Core(configJSON: "{\"timezone\": \"UTC\"}") }
        do throws(CarFitError) {
            _ = try Core(configJSON: "{\"timezone\": \"UTC\"}")
        } catch {
            #expect(error.status == .invalid)
            #expect(error.field == "timezone")
        }
    }

    @Test func notFound() async throws {
        let core = try Core(configJSON: dayConfig())
        let error = await failure { try await core.employeesRecoverPin(EmployeesRecoverPinRequest(email: "nobody@example.com")) }
        #expect(error?.status == .notFound)
    }

    @Test func conflict() async throws {
        let core = try Core(configJSON: dayConfig())
        let request = EmployeesCreateRequest(pin: "1111", firstName: "A", lastName: "B", email: "a@example.com")
        _ = try await core.employeesCreate(request)
        let error = await failure {
            try await core.employeesCreate(EmployeesCreateRequest(pin: "2222", firstName: "C", lastName: "D",
                                                                  email: "a@example.com"))
        }
        #expect(error?.status == .conflict)
    }

    @Test func unauthorized() async throws {
        let core = try Core(configJSON: dayConfig())
        let error = await failure { try await core.sessionLogin(SessionLoginRequest(pin: "9999")) }
        #expect(error?.status == .unauthorized)
    }

    @Test func unavailableOnARefusedPort() async throws {
        let url = "http://127.0.0.1:\(refusedPort())/visits.json"
        let core = try Core(configJSON: dayConfig(sources: ["visits": url]))
        let error = await failure { try await core.visitsRefresh(VisitsRefreshRequest()) }
        #expect(error?.status == .unavailable)
        #expect(error?.reason == "refused")
        #expect(error?.url == url)
    }

    @Test func storageWhenTheDatabaseIsADirectory() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        do throws(CarFitError) {
            _ = try Core(configJSON: dayConfig(database: directory.path))
            Issue.record("a directory opened as a database")
        } catch {
            #expect(error.status == .storage)
            #expect(error.field == "database")
        }
    }

    @Test func misuseForAnUnknownMethod() async throws {
        let core = try Core(configJSON: dayConfig())
        let error = await failure { try await core.call("visits.fly", "{}") }
        #expect(error?.status == .misuse)
        #expect(error?.field == "method")
    }

    @Test func statusesMatchTheLibrary() {
        #expect(CarFitStatus.allCases.count == 10)
        #expect(CarFitStatus.badJson.rawValue == 1 && CarFitStatus.internal.name == "internal")
        #expect(CarFitStatus(name: "not_found") == .notFound)
        #expect(Core.libraryVersion.hasPrefix("1."))
    }
}
