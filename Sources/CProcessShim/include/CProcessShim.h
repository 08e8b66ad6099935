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

/// Marks the calling thread as the output pump's (a thread-local flag), so a
/// request made on the pump itself need not wake it.
void duet_mark_pump_thread(void);
int duet_is_pump_thread(void);

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
  /// Signals set to their default action in the child even when duet ignores them.
  const int *defaults;
  int default_count;
} duet_spawn_request;

/// posix_spawn's work without its per-call stack mapping and its 64 signal
/// queries (see spawn.c). Returns 0 or an errno; on success `*pid` is the
/// child and `*pidfd` a close-on-exec pidfd for it, or -1 on a kernel without.
int duet_spawn(const duet_spawn_request *request, pid_t *pid, int *pidfd);
#endif
