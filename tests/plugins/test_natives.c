/* The test plugin of tests/unit/plugin_test.cpp. Compiled several times: plainly (a correct
 * plugin), and with one TANDEM_TEST_* definition for each way a plugin can be refused. */
#include <tandem/native_plugin.h>

/* triple(x) = 3x; undefined when 3x overflows int64. */
static int triple(const tandem_value* args, size_t nargs, tandem_value* result) {
  int64_t x = args[0].as.i64;
  (void)nargs;
  if (x > INT64_MAX / 3 || x < INT64_MIN / 3) return 1;
  result->as.i64 = 3 * x;
  return 0;
}

static int is_even(const tandem_value* args, size_t nargs, tandem_value* result) {
  (void)nargs;
  result->as.b = args[0].as.i64 % 2 == 0;
  return 0;
}

/* The floor of the square root; undefined for x < 0. */
static int checked_sqrt(const tandem_value* args, size_t nargs, tandem_value* result) {
  int64_t x = args[0].as.i64, lo = 0, hi = 3037000499; /* floor(sqrt(INT64_MAX)) */
  (void)nargs;
  if (x < 0) return 1;
  while (lo < hi) {
    int64_t mid = lo + (hi - lo + 1) / 2;
    if (mid * mid <= x)
      lo = mid;
    else
      hi = mid - 1;
  }
  result->as.i64 = lo;
  return 0;
}

/* choose(c, a, b) = c ? a : b: a bool argument among ints. */
static int choose(const tandem_value* args, size_t nargs, tandem_value* result) {
  (void)nargs;
  result->as.i64 = args[0].as.b ? args[1].as.i64 : args[2].as.i64;
  return 0;
}

/* Breaks the contract by changing the result's kind: the host must treat it as undefined. */
static int wrong_kind(const tandem_value* args, size_t nargs, tandem_value* result) {
  (void)args;
  (void)nargs;
  result->kind = TANDEM_BOOL;
  result->as.b = 1;
  return 0;
}

/* The Bessel function of the first kind of order 0, by its power series
 *   J0(x) = sum_k (-1)^k (x^2/4)^k / (k!)^2,
 * summed until the terms no longer change the sum; undefined for |x| > 20 (where the series
 * cancels too badly to be trusted) and for NaN. No libm, so the plugin links against nothing. */
static int bessel_j0(const tandem_value* args, size_t nargs, tandem_value* result) {
  double x = args[0].as.f64, q = x * x / 4.0, term = 1.0, sum = 1.0;
  int k;
  (void)nargs;
  if (!(x >= -20.0 && x <= 20.0)) return 1;
  for (k = 1; k < 200; ++k) {
    double next;
    term *= -q / ((double)k * (double)k);
    next = sum + term;
    if (next == sum) break;
    sum = next;
  }
  result->as.f64 = sum;
  return 0;
}

/* scale(x, n) = x * n: an f64 and an int argument. */
static int scale(const tandem_value* args, size_t nargs, tandem_value* result) {
  (void)nargs;
  result->as.f64 = args[0].as.f64 * (double)args[1].as.i64;
  return 0;
}

/* Whether an f64 is negative (-0.0 counts: the sign bit passes through). */
static int sign_bit(const tandem_value* args, size_t nargs, tandem_value* result) {
  (void)nargs;
  result->as.b = args[0].as.f64 < 0.0 || (args[0].as.f64 == 0.0 && 1.0 / args[0].as.f64 < 0.0);
  return 0;
}

#ifdef TANDEM_TEST_WRONG_ABI
TANDEM_NATIVE_EXPORT uint32_t tandem_natives_abi_version(void) { return TANDEM_TEST_WRONG_ABI; }
#else
TANDEM_NATIVE_PLUGIN_ABI;
#endif

TANDEM_NATIVE_EXPORT int tandem_register_natives(const tandem_registrar* r) {
  const tandem_kind one_int[] = {TANDEM_INT64};
  const tandem_kind choose_params[] = {TANDEM_BOOL, TANDEM_INT64, TANDEM_INT64};
  const tandem_kind one_f64[] = {TANDEM_F64};
  const tandem_kind scale_params[] = {TANDEM_F64, TANDEM_INT64};
  int failed = 0;
  if (r->abi_version != TANDEM_NATIVE_ABI_VERSION) return 1;
  failed |= r->add_native(r, "triple", one_int, 1, TANDEM_INT64, triple);
  failed |= r->add_native(r, "is_even", one_int, 1, TANDEM_BOOL, is_even);
  failed |= r->add_native(r, "checked_sqrt", one_int, 1, TANDEM_INT64, checked_sqrt);
  failed |= r->add_native(r, "choose", choose_params, 3, TANDEM_INT64, choose);
  failed |= r->add_native(r, "wrong_kind", one_int, 1, TANDEM_INT64, wrong_kind);
  failed |= r->add_native(r, "j0", one_f64, 1, TANDEM_F64, bessel_j0);
  failed |= r->add_native(r, "scale", scale_params, 2, TANDEM_F64, scale);
  failed |= r->add_native(r, "sign_bit", one_f64, 1, TANDEM_BOOL, sign_bit);
#ifdef TANDEM_TEST_BAD_KIND
  {
    const tandem_kind bad[] = {TANDEM_INT64, (tandem_kind)42};
    failed |= r->add_native(r, "bad_kind", bad, 2, TANDEM_INT64, triple);
  }
#endif
#ifdef TANDEM_TEST_FAILING
  r->report_error(r, "the test plugin refuses to register");
  return 1;
#endif
  return failed;
}
