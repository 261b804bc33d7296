/* startup_probe: time from exec to the first successful GET /auth/keys.
 * usage: startup_probe BINARY RUNS
 *        startup_probe --nginx NGINX PREFIX TEMPLATE RUNS
 * For each run: pick a free loopback port, take the time, fork+exec BINARY --host 127.0.0.1
 * --port P (stdout/stderr to /dev/null), then connect in a tight loop until a GET /auth/keys
 * answers "HTTP/1.1 200"; record the elapsed time, SIGTERM the child and reap it.
 * With --nginx the same probe times `NGINX -c PREFIX/nginx.conf -p PREFIX`, the reference of the
 * start-up ratio: before each run (outside the timing) TEMPLATE is copied to PREFIX/nginx.conf with
 * every "@PORT@" replaced by the run's port.
 * Prints one line per run in microseconds, then "median_us N". */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static int free_port(void) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in addr = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t len = sizeof addr;
    if (fd < 0 || bind(fd, (struct sockaddr *)&addr, sizeof addr) != 0 ||
        getsockname(fd, (struct sockaddr *)&addr, &len) != 0) {
        perror("free_port");
        exit(1);
    }
    close(fd);
    return ntohs(addr.sin_port);
}

/* 1 if GET /auth/keys on port answered 200, 0 if not (yet). */
static int try_get(int port) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons(port),
                               .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    int ok = 0;
    if (connect(fd, (struct sockaddr *)&addr, sizeof addr) == 0) {
        static const char req[] = "GET /auth/keys HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";
        char buf[64];
        ssize_t got = 0, n;
        if (send(fd, req, sizeof req - 1, MSG_NOSIGNAL) == (ssize_t)(sizeof req - 1)) {
            while (got < 12 && (n = recv(fd, buf + got, sizeof buf - 1 - got, 0)) > 0) got += n;
            buf[got] = 0;
            ok = got >= 12 && strncmp(buf, "HTTP/1.1 200", 12) == 0;
        }
    }
    close(fd);
    return ok;
}

static int cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Writes TEMPLATE to PATH with every "@PORT@" replaced by PORT; 0 on success. */
static int write_config(const char *template_path, const char *path, const char *port) {
    FILE *in = fopen(template_path, "r"), *out = fopen(path, "w");
    if (!in || !out) return -1;
    char line[4096];
    while (fgets(line, sizeof line, in)) {
        char *at, *rest = line;
        while ((at = strstr(rest, "@PORT@")) != NULL) {
            fwrite(rest, 1, (size_t)(at - rest), out);
            fputs(port, out);
            rest = at + 6;
        }
        fputs(rest, out);
    }
    fclose(in);
    return fclose(out);
}

int main(int argc, char **argv) {
    int nginx = argc == 6 && strcmp(argv[1], "--nginx") == 0;
    if (argc != 3 && !nginx) {
        fprintf(stderr, "usage: %s BINARY RUNS | --nginx NGINX PREFIX TEMPLATE RUNS\n", argv[0]);
        return 64;
    }
    int runs = atoi(argv[nginx ? 5 : 2]);
    char conf[4096];
    if (nginx) snprintf(conf, sizeof conf, "%s/nginx.conf", argv[3]);
    if (runs < 1 || runs > 1000) return 64;
    double *samples = calloc(runs, sizeof *samples);
    for (int i = 0; i < runs; i++) {
        char port[16];
        int p = free_port();
        snprintf(port, sizeof port, "%d", p);
        if (nginx && write_config(argv[4], conf, port) != 0) {
            perror("nginx config");
            return 1;
        }
        double start = now_us();
        pid_t pid = fork();
        if (pid == 0) {
            int null = open("/dev/null", O_WRONLY);
            dup2(null, 1);
            dup2(null, 2);
            if (nginx)
                execl(argv[2], argv[2], "-c", conf, "-p", argv[3], (char *)NULL);
            else
                execl(argv[1], argv[1], "--host", "127.0.0.1", "--port", port, (char *)NULL);
            _exit(127);
        }
        double elapsed = -1;
        while (now_us() - start < 5e6) {
            if (try_get(p)) {
                elapsed = now_us() - start;
                break;
            }
            int status;
            if (waitpid(pid, &status, WNOHANG) == pid) {
                fprintf(stderr, "server exited early (status %d)\n", status);
                return 1;
            }
            usleep(100);
        }
        kill(pid, SIGTERM);
        waitpid(pid, NULL, 0);
        if (elapsed < 0) {
            fprintf(stderr, "no 200 from /auth/keys within 5 s\n");
            return 1;
        }
        samples[i] = elapsed;
        printf("run %d %.0f us\n", i + 1, elapsed);
    }
    qsort(samples, runs, sizeof *samples, cmp);
    double median = runs % 2 ? samples[runs / 2] : (samples[runs / 2 - 1] + samples[runs / 2]) / 2;
    printf("median_us %.0f\n", median);
    return 0;
}
