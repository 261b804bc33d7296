#define _GNU_SOURCE
#include "csys.h"
#include <malloc.h>
#include <sys/eventfd.h>
#include <unistd.h>

int csys_accept4(int fd, struct sockaddr *addr, socklen_t *len, int flags) { return accept4(fd, addr, len, flags); }
int csys_epoll_create(void) { return epoll_create1(EPOLL_CLOEXEC); }
int csys_epoll_ctl(int epfd, int op, int fd, uint32_t events, uint64_t data) {
    struct epoll_event ev;
    ev.events = events;
    ev.data.u64 = data;
    return epoll_ctl(epfd, op, fd, &ev);
}
int csys_epoll_wait(int epfd, struct epoll_event *events, int maxevents, int timeout) {
    return epoll_wait(epfd, events, maxevents, timeout);
}
uint64_t csys_epoll_event_data(const struct epoll_event *event) { return event->data.u64; }
uint32_t csys_epoll_event_events(const struct epoll_event *event) { return event->events; }
int csys_eventfd(void) { return eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC); }

int csys_epoll_wait_split(int epfd, uint64_t *datas, uint32_t *events, int maxevents, int timeout) {
    struct epoll_event buffer[256];
    if (maxevents > 256) maxevents = 256;
    int n = epoll_wait(epfd, buffer, maxevents, timeout);
    for (int i = 0; i < n; i++) {
        datas[i] = buffer[i].data.u64;
        events[i] = buffer[i].events;
    }
    return n;
}

int csys_core_count(void) {
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : (int)n;
}

int csys_malloc_trim(void) { return malloc_trim(0); }
