import Glibc

/// Runs an `EpollLoop` on its own pthread.
enum LoopThread {
    /// Hands the loop to exactly one new thread; nothing else touches it afterwards.
    final class Handoff: @unchecked Sendable {
        // @unchecked: the loop is owned by the thread that receives it; the creating thread drops it.
        let loop: EpollLoop
        init(_ loop: EpollLoop) { self.loop = loop }
    }

    static func start(_ loop: EpollLoop) -> pthread_t? {
        let handoff = Unmanaged.passRetained(Handoff(loop)).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(
            &thread, nil,
            { raw in
                guard let raw else { return nil }
                let handoff = Unmanaged<Handoff>.fromOpaque(raw).takeRetainedValue()
                handoff.loop.run()
                return nil
            }, handoff)
        guard result == 0 else {
            Unmanaged<Handoff>.fromOpaque(handoff).release()
            return nil
        }
        return thread
    }
}
