import Background
import Locking
import SIWACore
import SIWAServer

/// Reloads the scenario when its file changes: compares the file's stamp about once a second on the
/// background scheduler. A file that fails to load is logged with every positioned error and the old
/// scenario stays active (`MockServer.replaceScenario` is all-or-nothing).
///
/// The first stamp is the one taken when the file was loaded at startup (`loadedStamp`), so an edit made
/// right after the ready line is a change like any other.
final class ScenarioWatcher: Sendable {
    let path: String
    let server: MockServer
    let log: RequestLog
    let intervalMilliseconds: Int64
    private let last: Lock<ScenarioFile.Stamp?>

    /// - Parameter loadedStamp: `ScenarioFile.stamp(path)` taken just before the file was read.
    init(
        path: String, server: MockServer, log: RequestLog, loadedStamp: ScenarioFile.Stamp?,
        intervalMilliseconds: Int64 = 1000
    ) {
        self.path = path
        self.server = server
        self.log = log
        self.intervalMilliseconds = intervalMilliseconds
        last = Lock(loadedStamp)
    }

    /// Checks the file every interval on `scheduler`.
    func start(on scheduler: BackgroundScheduler) {
        if !scheduler.repeatEvery(intervalMilliseconds, { [self] in self.check() }) {
            log.note("scenario reload disabled: cannot start a background thread")
        }
    }

    /// One comparison: reloads when the stamp changed. A path that is no longer a regular file (a FIFO,
    /// a directory) is reported once and never opened, so it cannot block the watcher.
    func check() {
        let current = ScenarioFile.stamp(path)
        let changed = last.withLock { last in
            guard current != last else { return false }
            last = current
            return true
        }
        guard changed, let current else { return }
        guard current.isRegularFile else {
            log.note("scenario reload skipped: \(path) is not a regular file; keeping the previous scenario")
            return
        }
        reload()
    }

    /// A reload asked for (SIGHUP): the file's current stamp counts as seen, so the next check does not
    /// load the same version again.
    func reloadRequested() {
        let current = ScenarioFile.stamp(path)
        last.withLock { $0 = current }
        reload()
    }

    func reload() {
        do {
            let (scenario, text) = try ScenarioFile.loadWithText(path, log: log)
            do {
                try server.replaceScenario(scenario, source: path, text: text)
                log.note("scenario reloaded from \(path)")
            } catch {
                log.note("scenario reload failed, keeping the previous scenario: \(error)")
            }
        } catch {
            log.note("scenario reload failed, keeping the previous scenario:", details: error.lines)
        }
    }
}
