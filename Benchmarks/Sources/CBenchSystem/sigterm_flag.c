#include <signal.h>
#include <string.h>

#include "CBenchSystem.h"

static volatile sig_atomic_t sigterm_caught = 0;

static void on_sigterm(int signal_number) {
  (void)signal_number;
  sigterm_caught = 1;
}

void stoic_bench_catch_sigterm(void) {
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_handler = on_sigterm;
  sigemptyset(&action.sa_mask);
  sigaction(SIGTERM, &action, NULL);
}

int stoic_bench_sigterm_caught(void) { return sigterm_caught; }
