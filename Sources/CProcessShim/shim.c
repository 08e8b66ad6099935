// Thin wrappers over process calls that Swift cannot see without _GNU_SOURCE.
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <unistd.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdlib.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/prctl.h>
#endif
#include "CProcessShim.h"

int duet_pipe_cloexec(int fds[2]) {
#if defined(__linux__)
  return pipe2(fds, O_CLOEXEC);
#else
  if (pipe(fds) != 0) return -1;
  fcntl(fds[0], F_SETFD, FD_CLOEXEC);
  fcntl(fds[1], F_SETFD, FD_CLOEXEC);
  return 0;
#endif
}

int duet_spawn_file_actions_addchdir(posix_spawn_file_actions_t *actions, const char *path) {
  return posix_spawn_file_actions_addchdir_np(actions, path);
}

int duet_pipe_cloexec_nonblocking(int fds[2]) {
  if (duet_pipe_cloexec(fds) != 0) return -1;
  fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK);
  fcntl(fds[1], F_SETFL, fcntl(fds[1], F_GETFL) | O_NONBLOCK);
  return 0;
}

int duet_become_subreaper(void) {
#if defined(__linux__)
  return prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
#else
  return -1;
#endif
}

/// Compares two NAME=value entries by their names' bytes ('=' ends a name).
static int compare_names(const void *a, const void *b) {
  const unsigned char *x = *(const unsigned char *const *)a;
  const unsigned char *y = *(const unsigned char *const *)b;
  for (;; x++, y++) {
    unsigned cx = *x == '=' ? 0 : *x, cy = *y == '=' ? 0 : *y;
    if (cx != cy || cx == 0) return (int)cx - (int)cy;
  }
}

void duet_sort_environment(char **entries, size_t count) {
  qsort(entries, count, sizeof *entries, compare_names);
}

static int stop_latch[2] = {-1, -1};
static pthread_once_t stop_latch_once = PTHREAD_ONCE_INIT;
static volatile sig_atomic_t stop_latch_first = 0;
static int children_running = 0;

static void make_stop_latch(void) {
  int fds[2];
  if (duet_pipe_cloexec_nonblocking(fds) == 0) {
    stop_latch[0] = fds[0];
    stop_latch[1] = fds[1];
  }
}

int duet_stop_latch_fd(void) {
  pthread_once(&stop_latch_once, make_stop_latch);
  return stop_latch[0];
}

void duet_stop_latch_trip(int signal) {
  if (stop_latch_first == 0) stop_latch_first = signal;
  // Made before any handler can run (duet_stop_latch_fd is called at start-up);
  // never read, so the byte keeps the read end readable.
  if (stop_latch[1] >= 0) {
    char byte = 1;
    ssize_t ignored = write(stop_latch[1], &byte, 1);
    (void)ignored;
  }
}

int duet_stop_latch_signal(void) { return stop_latch_first; }

void duet_children_add(int delta) { __atomic_add_fetch(&children_running, delta, __ATOMIC_SEQ_CST); }

int duet_children_running(void) { return __atomic_load_n(&children_running, __ATOMIC_SEQ_CST); }
