// The `tandem` executable: everything happens in the command layer (mc/cli).
#include <pthread.h>

#include "mc/cli/cli.h"

namespace {

// A model of N statements or an operator chain of N terms is walked recursively by some analyses
// (the evaluator, the solver translations, the printers follow an expression's tree). The main
// thread's 8 MiB stack overflowed at chains of about 10,000 terms; the command runs on a thread
// whose stack is reserved, not committed: pages are touched only as deep as a walk goes.
constexpr size_t kStackBytes = size_t{4} << 30;

struct Call {
  int argc;
  char** argv;
  int status = 0;
};

void* runCommand(void* p) {
  auto* c = static_cast<Call*>(p);
  c->status = tandem::cli::run(c->argc, c->argv);
  return nullptr;
}

}  // namespace

int main(int argc, char** argv) {
  Call call{argc, argv, 0};
  pthread_attr_t attr;
  pthread_t thread;
  const bool made = pthread_attr_init(&attr) == 0 &&
                    pthread_attr_setstacksize(&attr, kStackBytes) == 0 &&
                    pthread_create(&thread, &attr, runCommand, &call) == 0;
  pthread_attr_destroy(&attr);
  if (!made) return tandem::cli::run(argc, argv);  // no room for the stack: run as before
  pthread_join(thread, nullptr);
  return call.status;
}
