/* A shared library that is not a Tandem plugin: it exports no tandem_register_natives. */
#include <stdint.h>

int64_t tandem_not_a_plugin(int64_t x);
int64_t tandem_not_a_plugin(int64_t x) { return x + 1; }
