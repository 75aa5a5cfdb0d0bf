#include "mc/cli/cli.h"

#include <iostream>

namespace tandem::cli {

int run(int argc, char** argv) {
  (void)argv;
  if (argc < 2) {
    std::cerr << "usage: tandem COMMAND FILE [OPTIONS]\n";
    return 2;
  }
  return 2;
}

}  // namespace tandem::cli
