#include "CBenchSystem.h"

long stoic_bench_filesystem_type(const char *path) {
  struct statfs info;
  if (statfs(path, &info) != 0) {
    return -1;
  }
  return (long)info.f_type;
}
