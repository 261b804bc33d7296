import SIWACore
import SIWAServer

#if canImport(Glibc)
    import Glibc
#endif

/// Reloads the scenario when its file changes: polls the file's stamp about once a second on a
/// background thread. A file that fails to load is logged with every positioned error and the old
/// scenario stays active (`MockServer.replaceScenario` is all-or-nothing).
struct ScenarioWatcher: Sendable {
    let path: String
    let server: MockServer
    let log: RequestLog
    var intervalMilliseconds: Int = 1000

    /// Starts the polling thread (it runs until the process exits).
    func start() {
        let box = Unmanaged.passRetained(ThreadBody { [self] in self.run() })
        var thread = pthread_t()
        if pthread_create(
            &thread, nil,
            { raw in
                let body = Unmanaged<ThreadBody>.fromOpaque(raw!).takeRetainedValue()
                body.run()
                return nil
            }, box.toOpaque()) == 0
        {
            pthread_detach(thread)
        } else {
            box.release()
            log.note("scenario reload disabled: cannot start the watcher thread")
        }
    }

    private func run() {
        var last = ScenarioFile.stamp(path)
        while true {
            usleep(UInt32(intervalMilliseconds) * 1000)
            let current = ScenarioFile.stamp(path)
            guard current != last, current != nil else { continue }
            last = current
            reload()
        }
    }

    func reload() {
        do {
            let scenario = try ScenarioFile.load(path, log: log)
            do {
                try server.replaceScenario(scenario)
                log.note("scenario reloaded from \(path)")
            } catch {
                log.note("scenario reload failed, keeping the previous scenario: \(error)")
            }
        } catch {
            log.note("scenario reload failed, keeping the previous scenario:", details: error.lines)
        }
    }
}

/// A closure the C thread entry point can own (pthread passes one raw pointer).
final class ThreadBody: Sendable {
    let run: @Sendable () -> Void
    init(_ run: @escaping @Sendable () -> Void) { self.run = run }
}
