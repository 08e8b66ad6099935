#pragma once
#include <spawn.h>
#include <stddef.h>

/// A pipe whose two ends are close-on-exec from the start (pipe2 on Linux).
int duet_pipe_cloexec(int fds[2]);

/// posix_spawn_file_actions_addchdir_np, which glibc declares only under _GNU_SOURCE.
int duet_spawn_file_actions_addchdir(posix_spawn_file_actions_t *actions, const char *path);

/// A close-on-exec pipe whose ends are both non-blocking (the pump's wake-up pipe).
int duet_pipe_cloexec_nonblocking(int fds[2]);

/// Sorts NAME=value entries by name, bytewise (the order `env` shows a lane).
void duet_sort_environment(char **entries, size_t count);

/// The stop latch: a pipe that becomes readable, for good, once a signal has
/// asked duet to stop. Every event loop polls its read end, so a loop started
/// after the signal sees it as well as one that was waiting. Tripping it only
/// writes a byte, which is safe in a signal handler. -1 when it cannot be made.
int duet_stop_latch_fd(void);
/// Trips the latch for `signal` (the first one is kept); safe in a handler.
void duet_stop_latch_trip(int signal);
/// The signal that tripped the latch, or 0.
int duet_stop_latch_signal(void);
/// Keeps `signal` as the first one no command took (it ends the process); atomic.
void duet_signal_unhandled(int signal);
/// The first signal no command took, or 0.
int duet_signal_unhandled_first(void);
/// An event loop saw the tripped latch and is stopping its children: the
/// command's thread is alive, not stuck waiting on the machine.
void duet_stop_latch_heard(void);
int duet_stop_latch_was_heard(void);

/// How many children duet's event loops have started and not yet reaped, in
/// this process: what a signal's exit path waits for.
void duet_children_add(int delta);
int duet_children_running(void);
/// A word several threads share without a lock (the wake-up pipe's count of
/// messages waiting beside it): made zero, read and written atomically, freed.
long *duet_shared_word_make(void);
long duet_shared_word_load(const long *word);
void duet_shared_word_store(long *word, long value);
void duet_shared_word_free(long *word);

/// Starts the thread that receives `numbers` (SIGINT, SIGTERM, ...): their
/// handler writes the number into a pipe, and that thread, made now while a
/// thread can be made, calls `callback` with it. SIGWINCH comes to `callback`
/// too, received by that thread alone (blocked in every other). `context` is
/// handed to every call. 0, or the error of pthread_create.
int duet_signal_thread_start(const int *numbers, int count, void (*callback)(int, void *), void *context);

/// Records that `leader`'s process group is live (1) or gone (0).
void duet_group_live(int leader, int live);
/// Sends `signal` to every live process group; how many it reached.
int duet_groups_kill(int signal);

/// Makes this process the subreaper of its descendants (Linux's PR_SET_CHILD_SUBREAPER):
/// an orphaned descendant is re-parented to duet, not to init. -1 where unsupported.
int duet_become_subreaper(void);

#if defined(__linux__)
#include <sys/types.h>

/// One child to start: in a process group of its own, stdin from /dev/null,
/// stdout and stderr onto `output`, in `directory`, with an empty signal mask.
typedef struct {
  const char *path;
  char *const *argv;
  char *const *envp;
  /// NULL: duet's own working directory.
  const char *directory;
  int output;
  /// Non-zero: stderr goes to /dev/null instead of `output` (a git query's noise).
  int discard_errors;
  /// Signals set to their default action in the child even when duet ignores them.
  const int *defaults;
  int default_count;
  /// When not -1: a descriptor the child finds at `extra_target` (bubblewrap's
  /// status file at 4); every other descriptor above stderr is closed.
  int extra;
  int extra_target;
} duet_spawn_request;

/// posix_spawn's work without its per-call stack mapping and its 64 signal
/// queries (see spawn.c). Returns 0 or an errno; on success `*pid` is the
/// child and `*pidfd` a close-on-exec pidfd for it, or -1 on a kernel without.
int duet_spawn(const duet_spawn_request *request, pid_t *pid, int *pidfd);
#endif
