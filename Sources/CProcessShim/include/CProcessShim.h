#pragma once
#include <spawn.h>

/// A pipe whose two ends are close-on-exec from the start (pipe2 on Linux).
int duet_pipe_cloexec(int fds[2]);

/// posix_spawn_file_actions_addchdir_np, which glibc declares only under _GNU_SOURCE.
int duet_spawn_file_actions_addchdir(posix_spawn_file_actions_t *actions, const char *path);

/// A close-on-exec pipe whose ends are both non-blocking (the pump's wake-up pipe).
int duet_pipe_cloexec_nonblocking(int fds[2]);

/// Makes this process the subreaper of its descendants (Linux's PR_SET_CHILD_SUBREAPER):
/// an orphaned descendant is re-parented to duet, not to init. -1 where unsupported.
int duet_become_subreaper(void);
