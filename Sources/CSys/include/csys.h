#ifndef SIWA_CSYS_H
#define SIWA_CSYS_H
// Thin shims for what Swift's Glibc module hides (epoll, GNU extensions) and the libFuzzer driver.
#include <stddef.h>
#include <stdint.h>
#include <sys/epoll.h>
#include <sys/socket.h>

int csys_accept4(int fd, struct sockaddr *addr, socklen_t *len, int flags);
int csys_epoll_create(void);
int csys_epoll_ctl(int epfd, int op, int fd, uint32_t events, uint64_t data);
int csys_epoll_wait(int epfd, struct epoll_event *events, int maxevents, int timeout);
uint64_t csys_epoll_event_data(const struct epoll_event *event);
uint32_t csys_epoll_event_events(const struct epoll_event *event);
int csys_eventfd(void);

/// libFuzzer's driver; declared here so fuzz executables can call it explicitly.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*UserCb)(const uint8_t *Data, size_t Size));

#endif
