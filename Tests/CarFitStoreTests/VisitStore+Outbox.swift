import CarFitCore
@testable import CarFitStore

/// The store's tests write snapshots as the core does: with the outbox's hooks.
extension VisitStore {
    func replaceAll(with visits: [Visit]) throws(CarFitError) {
        try replaceAll(with: visits, hooks: SyncStore(db).snapshotHooks)
    }

    func beginSnapshot() throws(CarFitError) -> SnapshotWriter {
        try beginSnapshot(SyncStore(db).snapshotHooks)
    }
}
