// The `tandem` executable: everything happens in the command layer (mc/cli).
#include "mc/cli/cli.h"

int main(int argc, char** argv) { return tandem::cli::run(argc, argv); }
