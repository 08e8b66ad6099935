// Thin wrappers over process calls that Swift cannot see without _GNU_SOURCE.
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <unistd.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
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

static int unhandled_first = 0;

void duet_signal_unhandled(int signal) {
  int none = 0;
  __atomic_compare_exchange_n(&unhandled_first, &none, signal, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
}

int duet_signal_unhandled_first(void) { return __atomic_load_n(&unhandled_first, __ATOMIC_SEQ_CST); }

static int stop_latch_heard = 0;

void duet_stop_latch_heard(void) { __atomic_store_n(&stop_latch_heard, 1, __ATOMIC_SEQ_CST); }

int duet_stop_latch_was_heard(void) { return __atomic_load_n(&stop_latch_heard, __ATOMIC_SEQ_CST); }

void duet_children_add(int delta) { __atomic_add_fetch(&children_running, delta, __ATOMIC_SEQ_CST); }

int duet_children_running(void) { return __atomic_load_n(&children_running, __ATOMIC_SEQ_CST); }

long *duet_shared_word_make(void) { return calloc(1, sizeof(long)); }

long duet_shared_word_load(const long *word) { return word ? __atomic_load_n(word, __ATOMIC_SEQ_CST) : 0; }

void duet_shared_word_store(long *word, long value) { if (word) __atomic_store_n(word, value, __ATOMIC_SEQ_CST); }

void duet_shared_word_free(long *word) { free(word); }


/* The stop signals' own thread. It is made at start-up, while a thread can
   still be made: a machine out of threads (ulimit -u) later would leave a
   signal handled on a Dispatch queue waiting for a worker that never comes,
   and duet deaf to SIGINT and SIGTERM. The handler only writes the number
   into a pipe; the thread, whose signals are all blocked, reads it and calls back. */
static int signal_pipe[2] = {-1, -1};
static void (*signal_callback)(int, void *) = 0;

static void on_stop_signal(int number) {
  int saved = errno;
  unsigned char byte = (unsigned char)number;
  ssize_t ignored = write(signal_pipe[1], &byte, 1);
  (void)ignored;
  errno = saved;
}

/* SIGWINCH (the terminal resized) is no stop: it is unblocked in the signal
   thread alone, so only that thread's read is ever interrupted by it (and
   restarted), never a wait of another thread's (issue 52, item 10). */
static sigset_t quiet_signals;

static void *signal_thread(void *context) {
  pthread_sigmask(SIG_UNBLOCK, &quiet_signals, 0);
  for (;;) {
    unsigned char byte;
    ssize_t n = read(signal_pipe[0], &byte, 1);
    if (n == 1) {
      signal_callback(byte, context);
    } else if (!(n < 0 && errno == EINTR)) {
      return 0;
    }
  }
}

int duet_signal_thread_start(const int *numbers, int count, void (*callback)(int, void *), void *context) {
  if (duet_pipe_cloexec(signal_pipe) != 0) return errno;
  // A full pipe must never block a handler: a signal more is then dropped, the first is queued.
  fcntl(signal_pipe[1], F_SETFL, fcntl(signal_pipe[1], F_GETFL) | O_NONBLOCK);
  signal_callback = callback;
  sigset_t all, previous;
  sigfillset(&all);
  pthread_sigmask(SIG_BLOCK, &all, &previous);
  pthread_attr_t attributes;
  pthread_attr_init(&attributes);
  pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
  sigemptyset(&quiet_signals);
  sigaddset(&quiet_signals, SIGWINCH);
  pthread_t thread;
  int error = pthread_create(&thread, &attributes, signal_thread, context);
  pthread_attr_destroy(&attributes);
  pthread_sigmask(SIG_SETMASK, &previous, 0);
  if (error != 0) return error;
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_handler = on_stop_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  // Unblocked here, and so in every thread made from now on: a parent may have
  // started duet with them blocked (a test runner's worker thread does), and a
  // blocked signal would wait, pending, for good.
  sigset_t handled;
  sigemptyset(&handled);
  for (int i = 0; i < count; i++) {
    sigaction(numbers[i], &action, 0);
    sigaddset(&handled, numbers[i]);
  }
  pthread_sigmask(SIG_UNBLOCK, &handled, 0);
  // Blocked here, and so in every thread made from now on but the signal
  // thread; children start with an empty mask (duet_spawn, posix_spawn's SETSIGMASK).
  sigaction(SIGWINCH, &action, 0);
  pthread_sigmask(SIG_BLOCK, &quiet_signals, 0);
  return 0;
}

/* The process groups duet's children lead, while they live: what a last-resort
   exit kills when no event loop is left to stop them. */
#define DUET_GROUP_SLOTS 4096
static int live_groups[DUET_GROUP_SLOTS];

void duet_group_live(int leader, int live) {
  for (int i = 0; i < DUET_GROUP_SLOTS; i++) {
    int expected = live ? 0 : leader;
    if (__atomic_compare_exchange_n(&live_groups[i], &expected, live ? leader : 0, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) return;
  }
}

int duet_groups_kill(int signal) {
  int count = 0;
  for (int i = 0; i < DUET_GROUP_SLOTS; i++) {
    int leader = __atomic_load_n(&live_groups[i], __ATOMIC_SEQ_CST);
    if (leader > 0 && kill(-leader, signal) == 0) count++;
  }
  return count;
}
