// LD_PRELOAD shim for `swift test --sanitize=thread` on Linux: tells ThreadSanitizer about the lock
// hand-off that Synchronization.Mutex performs in the kernel.
//
// Mutex's fast paths are inlined atomics, which TSan sees. When the lock is contended, unlock and lock
// go through `_MutexHandle._unlockSlow()` / `_lockSlow(_:)` in libswiftSynchronization.so, which use
// FUTEX_UNLOCK_PI / FUTEX_LOCK_PI: the kernel passes ownership to the waiter and TSan (which does not
// model futexes, and whose runtime is not in that uninstrumented library) sees no happens-before edge.
// Every contended Mutex then looks like a "Swift access race" on the protected value - a false positive
// (reproduced by mutex-contention.swift: the count is exact, yet TSan reports a race).
//
// These two definitions interpose the slow paths (the inlined callers reach them through the PLT) and
// add __tsan_release before handing the lock over and __tsan_acquire after taking it. The TSan entry
// points are weak, so in a process without TSan (swift-build, swift-test) the shim only forwards.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

extern void __tsan_acquire(void *addr) __attribute__((weak));
extern void __tsan_release(void *addr) __attribute__((weak));

#define LOCK_SLOW "$s15Synchronization12_MutexHandleV9_lockSlowyys6UInt32VF"
#define UNLOCK_SLOW "$s15Synchronization12_MutexHandleV11_unlockSlowyyF"

// Swift calling convention: `self` (the handle, passed by address) travels in the swiftself register.
typedef __attribute__((swiftcall)) void (*lock_slow_fn)(unsigned self_id, __attribute__((swift_context)) void *handle);
typedef __attribute__((swiftcall)) void (*unlock_slow_fn)(__attribute__((swift_context)) void *handle);

__attribute__((swiftcall)) void lock_slow(unsigned self_id, __attribute__((swift_context)) void *handle)
    __asm__(LOCK_SLOW);
__attribute__((swiftcall)) void unlock_slow(__attribute__((swift_context)) void *handle) __asm__(UNLOCK_SLOW);

static void *real_symbol(const char *name) {
    void *symbol = dlsym(RTLD_NEXT, name);
    if (!symbol) {
        fprintf(stderr, "mutex-handoff: %s not found in the Swift runtime\n", name);
        abort();
    }
    return symbol;
}

__attribute__((swiftcall)) void lock_slow(unsigned self_id, __attribute__((swift_context)) void *handle) {
    static lock_slow_fn real;
    if (!real) real = (lock_slow_fn)real_symbol(LOCK_SLOW);
    real(self_id, handle);
    if (__tsan_acquire) __tsan_acquire(handle);
}

__attribute__((swiftcall)) void unlock_slow(__attribute__((swift_context)) void *handle) {
    static unlock_slow_fn real;
    if (!real) real = (unlock_slow_fn)real_symbol(UNLOCK_SLOW);
    if (__tsan_release) __tsan_release(handle);
    real(handle);
}
