// duet_spawn: posix_spawn's vfork-style start, without the costs glibc's
// posix_spawn pays on every call in a threaded process (Linux only).
//
// glibc maps a fresh stack for each child and unmaps it afterwards; in a
// process with other threads that munmap is a TLB shoot-down on every core.
// Its child also asks about all 64 signal dispositions before the exec. Here
// the child runs on one stack kept for the process's life (spawns are
// serialised by a mutex), resets only the classic signals that need it, and
// the kernel hands back a pidfd with the pid (CLONE_PIDFD) so the caller can
// poll for the exit instead of waiting for SIGCHLD.
#define _GNU_SOURCE
#include "CProcessShim.h"

#if defined(__linux__)
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef CLONE_PIDFD
#define CLONE_PIDFD 0x00001000
#endif

/// Enough for the child's few system calls: it never searches PATH or allocates.
#define DUET_SPAWN_STACK (64 * 1024)

static pthread_mutex_t spawn_lock = PTHREAD_MUTEX_INITIALIZER;
static char spawn_stack[DUET_SPAWN_STACK] __attribute__((aligned(64)));
static int dev_null = -1;
static int dev_null_out = -1;

struct child_args {
  const duet_spawn_request *request;
  int dev_null;
  /// /dev/null for writing, when the request discards stderr.
  int dev_null_out;
  /// Written by the child (same memory) when it cannot exec.
  volatile int error;
};

static int in_list(int signal, const int *list, int count) {
  for (int i = 0; i < count; i++) {
    if (list[i] == signal) return 1;
  }
  return 0;
}

/// Every signal arrives blocked (the parent blocked them all before the
/// clone). A signal with a handler must be reset before the mask is cleared,
/// or a handler of the parent could run in the child on the parent's memory;
/// listed signals are reset even when ignored. Real-time signals are left as
/// they are: duet sets no handler on them, and exec resets handlers anyway.
static void reset_signals(const duet_spawn_request *request) {
  struct sigaction fallback;
  memset(&fallback, 0, sizeof fallback);
  fallback.sa_handler = SIG_DFL;
  for (int signal = 1; signal < 32; signal++) {
    if (signal == SIGKILL || signal == SIGSTOP) continue;
    if (!in_list(signal, request->defaults, request->default_count)) {
      struct sigaction current;
      if (sigaction(signal, NULL, &current) != 0) continue;
      if (current.sa_handler == SIG_DFL || current.sa_handler == SIG_IGN) continue;
    }
    sigaction(signal, &fallback, NULL);
  }
}

/// dup2 that also works when the descriptor is already in place (then only
/// close-on-exec is cleared, as posix_spawn's dup2 action does).
static int place(int from, int to) {
  if (from != to) return dup2(from, to) < 0 ? -1 : 0;
  int flags = fcntl(to, F_GETFD);
  return flags < 0 ? -1 : fcntl(to, F_SETFD, flags & ~FD_CLOEXEC);
}

/// Closes every descriptor above stderr in the child (its table is its own:
/// no CLONE_FILES) but `kept` (-1: none). What the parent left open without
/// close-on-exec (a sibling lane's pipe, the history store, a hosting
/// process's files) is not the lane's. Best effort: a kernel without
/// close_range (before 5.9) keeps them.
static void close_inherited(int kept) {
#ifdef SYS_close_range
  if (kept < 3) {
    syscall(SYS_close_range, 3U, ~0U, 0U);
    return;
  }
  if (kept > 3) syscall(SYS_close_range, 3U, (unsigned)kept - 1, 0U);
  syscall(SYS_close_range, (unsigned)kept + 1, ~0U, 0U);
#endif
}

static int child_main(void *pointer) {
  struct child_args *args = pointer;
  const duet_spawn_request *request = args->request;
  reset_signals(request);
  if (setpgid(0, 0) != 0) goto fail;
  if (place(args->dev_null, 0) != 0) goto fail;
  if (place(request->output, 1) != 0) goto fail;
  if (place(request->discard_errors ? args->dev_null_out : request->output, 2) != 0) goto fail;
  if (request->directory && chdir(request->directory) != 0) goto fail;
  if (request->extra >= 0 && place(request->extra, request->extra_target) != 0) goto fail;
  close_inherited(request->extra >= 0 ? request->extra_target : -1);
  sigset_t empty;
  sigemptyset(&empty);
  sigprocmask(SIG_SETMASK, &empty, NULL);
  execve(request->path, request->argv, request->envp);
fail:
  args->error = errno;
  _exit(127);
}

/// /dev/null opened once, close-on-exec; the child dup2s it onto stdin.
static int null_input(void) {
  if (dev_null < 0) dev_null = open("/dev/null", O_RDONLY | O_CLOEXEC);
  return dev_null;
}

/// /dev/null for writing, opened once; the child dup2s it onto stderr when asked.
static int null_output(void) {
  if (dev_null_out < 0) dev_null_out = open("/dev/null", O_WRONLY | O_CLOEXEC);
  return dev_null_out;
}

int duet_spawn(const duet_spawn_request *request, pid_t *pid, int *pidfd) {
  pthread_mutex_lock(&spawn_lock);
  int input = null_input();
  if (input < 0) {
    int error = errno;
    pthread_mutex_unlock(&spawn_lock);
    return error;
  }
  // Block everything, glibc's internal signals too, as posix_spawn does: no
  // handler may run in the child while it shares the parent's memory.
  sigset_t all, previous;
  memset(&all, 0xff, sizeof all);
  syscall(SYS_rt_sigprocmask, SIG_BLOCK, &all, &previous, _NSIG / 8);

  int output = request->discard_errors ? null_output() : -1;
  if (request->discard_errors && output < 0) {
    int error = errno;
    syscall(SYS_rt_sigprocmask, SIG_SETMASK, &previous, NULL, _NSIG / 8);
    pthread_mutex_unlock(&spawn_lock);
    return error;
  }
  struct child_args args = {request, input, output, 0};
  int descriptor = -1;
  char *top = spawn_stack + sizeof spawn_stack;
  int child = clone(child_main, top, CLONE_VM | CLONE_VFORK | CLONE_PIDFD | SIGCHLD, &args, &descriptor);
  if (child < 0 && errno == EINVAL) {  // a kernel before 5.2: no pidfd
    descriptor = -1;
    child = clone(child_main, top, CLONE_VM | CLONE_VFORK | SIGCHLD, &args);
  }
  int error = child < 0 ? errno : args.error;
  if (child > 0 && error != 0) {
    while (waitpid(child, NULL, 0) < 0 && errno == EINTR) {}
    if (descriptor >= 0) close(descriptor);
    child = -1;
    descriptor = -1;
  }
  syscall(SYS_rt_sigprocmask, SIG_SETMASK, &previous, NULL, _NSIG / 8);
  pthread_mutex_unlock(&spawn_lock);
  *pid = child;
  *pidfd = descriptor;
  return error;
}
#endif
