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

/// epoll_wait that copies results into two plain arrays, so Swift never touches the packed
/// `struct epoll_event`. Returns the count or -1 with errno set.
int csys_epoll_wait_split(int epfd, uint64_t *datas, uint32_t *events, int maxevents, int timeout);

// Constants that Glibc imports as enum types (or not at all); plain ints for Swift.
static const uint32_t csys_EPOLLIN = EPOLLIN;
static const uint32_t csys_EPOLLOUT = EPOLLOUT;
static const uint32_t csys_EPOLLERR = EPOLLERR;
static const uint32_t csys_EPOLLHUP = EPOLLHUP;
static const uint32_t csys_EPOLLRDHUP = EPOLLRDHUP;
static const int csys_EPOLL_CTL_ADD = EPOLL_CTL_ADD;
static const int csys_EPOLL_CTL_MOD = EPOLL_CTL_MOD;
static const int csys_EPOLL_CTL_DEL = EPOLL_CTL_DEL;
static const int csys_SOCK_STREAM = SOCK_STREAM;
static const int csys_SOCK_NONBLOCK = SOCK_NONBLOCK;
static const int csys_SOCK_CLOEXEC = SOCK_CLOEXEC;
static const int csys_MSG_NOSIGNAL = MSG_NOSIGNAL;

/// Number of online CPUs (sysconf(_SC_NPROCESSORS_ONLN)), at least 1.
int csys_core_count(void);

/// Returns free heap memory to the OS (glibc `malloc_trim(0)`); 1 if some was released.
int csys_malloc_trim(void);

/// libFuzzer's driver; declared here so fuzz executables can call it explicitly.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*UserCb)(const uint8_t *Data, size_t Size));

#endif
