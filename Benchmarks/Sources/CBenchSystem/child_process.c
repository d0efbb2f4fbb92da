#include "CBenchSystem.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

int stoic_bench_spawn(const char *path, char *const argv[], int output_fd, int error_fd) {
  posix_spawn_file_actions_t actions;
  if (posix_spawn_file_actions_init(&actions) != 0) {
    return -1;
  }
  if (output_fd >= 0) {
    posix_spawn_file_actions_adddup2(&actions, output_fd, STDOUT_FILENO);
  }
  if (error_fd >= 0) {
    posix_spawn_file_actions_adddup2(&actions, error_fd, STDERR_FILENO);
  }
  pid_t pid = -1;
  int failed = posix_spawn(&pid, path, &actions, NULL, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  return failed == 0 ? (int)pid : -1;
}

int stoic_bench_wait(int pid, int *status, double *cpu_seconds, long *max_rss_kib) {
  struct rusage usage;
  pid_t done;
  do {
    done = wait4((pid_t)pid, status, 0, &usage);
  } while (done < 0 && errno == EINTR);
  if (done < 0) {
    return -1;
  }
  *cpu_seconds = (double)usage.ru_utime.tv_sec + (double)usage.ru_stime.tv_sec
    + ((double)usage.ru_utime.tv_usec + (double)usage.ru_stime.tv_usec) / 1e6;
  *max_rss_kib = usage.ru_maxrss;
  return 0;
}

int stoic_bench_exited(int status) { return WIFEXITED(status) ? WEXITSTATUS(status) : -1; }

int stoic_bench_signal(int status) { return WIFSIGNALED(status) ? WTERMSIG(status) : 0; }

uint64_t *stoic_bench_map_counter(const char *path) {
  int fd = open(path, O_RDWR | O_CREAT, 0644);
  if (fd < 0) {
    return NULL;
  }
  if (ftruncate(fd, 4096) != 0) {
    close(fd);
    return NULL;
  }
  void *mapped = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  close(fd);
  return mapped == MAP_FAILED ? NULL : (uint64_t *)mapped;
}

void stoic_bench_counter_store(uint64_t *counter, uint64_t value) {
  __atomic_store_n(counter, value, __ATOMIC_RELEASE);
}

uint64_t stoic_bench_counter_load(const uint64_t *counter) {
  return __atomic_load_n(counter, __ATOMIC_ACQUIRE);
}
