// Thin wrappers over process calls that Swift cannot see without _GNU_SOURCE.
#define _GNU_SOURCE
#include <fcntl.h>
#include <spawn.h>
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
