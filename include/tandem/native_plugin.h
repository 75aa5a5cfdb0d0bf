/* Tandem native plugins: the C ABI between the model checker and a shared library that
 * implements `native` functions of the modelling language (spec/LANGUAGE.md, "Natives").
 * Plain C (C99 or later), usable from C and C++. See docs/natives.md for a worked example.
 *
 * A plugin is loaded with `tandem COMMAND FILE --natives ./libmy.so` (repeatable) and exports two
 * functions with C linkage and default visibility:
 *
 *   uint32_t tandem_natives_abi_version(void);
 *       Returns TANDEM_NATIVE_ABI_VERSION as seen when the plugin was compiled; write
 *       `TANDEM_NATIVE_PLUGIN_ABI;` once in the plugin to define it. Tandem refuses a plugin whose
 *       version differs from its own, before calling anything else in it.
 *   int tandem_register_natives(const tandem_registrar* r);
 *       Registers the plugin's natives through r->add_native and returns 0; a nonzero return
 *       fails the load (r->report_error can say why). Called once per load.
 *
 * Contract
 * - Purity: a native is a mathematical function of its arguments. The same arguments must give
 *   the same status and result on every call, with no observable side effects (no I/O, no global
 *   state that changes results, no randomness, no time). The checker caches, repeats, reorders
 *   and skips calls, and treats a native symbolically as an uninterpreted function, so an impure
 *   native makes every verdict meaningless.
 * - Undefinedness: return nonzero from a native for arguments where it has no value (e.g. the
 *   square root of a negative number). The analysis reports that execution as incomplete, never
 *   as an error of the model. An integer argument that does not fit int64_t makes the call
 *   undefined without calling the native.
 * - Thread safety: natives may be called concurrently from several threads; they must be
 *   reentrant. tandem_register_natives is called from one thread, once per load.
 * - Lifetime: the registrar and every pointer passed to a native (args, result) are valid only
 *   during that call; names and kind arrays given to add_native are copied. The library stays
 *   loaded while any of its natives can still be called, and is unloaded (dlclose) afterwards:
 *   natives must not hand out pointers into the library, and must not unload it themselves.
 * - Errors: never let a C++ exception or a longjmp cross this ABI; crashing crashes tandem.
 * - Versioning: TANDEM_NATIVE_ABI_VERSION changes whenever a declaration below changes
 *   incompatibly (a layout, a signature, the meaning of a kind). New kinds or registrar functions
 *   appended at the end come with a new version too, so a plugin built against an older header is
 *   refused with a clear message rather than misread.
 */
#ifndef TANDEM_NATIVE_PLUGIN_H
#define TANDEM_NATIVE_PLUGIN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
#define TANDEM_NATIVE_EXTERN_C extern "C"
extern "C" {
#else
#define TANDEM_NATIVE_EXTERN_C
#endif

/* Version 2 added TANDEM_F64 (and the union member `f64`). The layout of tandem_value is
 * unchanged (a double is no larger and no more strictly aligned than int64_t), so nothing a
 * version-1 plugin does would be read differently; but the set of kinds is part of the ABI (the
 * rule above: a plugin that checks r->abi_version relies on it to know which kinds the host
 * accepts), so the version changed and a version-1 plugin needs a rebuild, not a source change. */
#define TANDEM_NATIVE_ABI_VERSION 2u

#if defined(_WIN32)
#define TANDEM_NATIVE_EXPORT __declspec(dllexport)
#else
#define TANDEM_NATIVE_EXPORT __attribute__((visibility("default")))
#endif

/* The kind of a parameter or result. TANDEM_INT64 is the language's `int` (and serves `i32`
 * and `i64` parameters and results: a result is wrapped to the declared width); TANDEM_BOOL is
 * `bool`; TANDEM_F64 is `f64` (IEEE 754 binary64, C's `double`), and only `f64`: kinds never
 * convert between integers and floats. (Since ABI version 2.) */
typedef uint32_t tandem_kind;
#define TANDEM_INT64 ((tandem_kind)1)
#define TANDEM_BOOL ((tandem_kind)2)
#define TANDEM_F64 ((tandem_kind)3)

/* A value of one of the kinds above. Bool arguments are 0 or 1; a bool result is true when
 * nonzero. An f64 passes bit for bit: NaN, infinities and -0.0 included, in arguments and
 * results alike (a NaN result is a value, not undefinedness; return nonzero for that). */
typedef struct tandem_value {
  tandem_kind kind;
  union {
    int64_t i64; /* TANDEM_INT64 */
    int32_t b;   /* TANDEM_BOOL */
    double f64;  /* TANDEM_F64 */
  } as;
} tandem_value;

/* A native's implementation. args[0..nargs) have the registered parameter kinds (nargs is the
 * registered arity). *result arrives with result->kind set to the registered result kind and a
 * zero value: set result->as.i64, result->as.b or result->as.f64. Returns 0 when defined, nonzero
 * when the function is undefined for these arguments. A result whose kind was changed is treated
 * as undefined. */
typedef int (*tandem_native_fn)(const tandem_value* args, size_t nargs, tandem_value* result);

typedef struct tandem_registrar tandem_registrar;
struct tandem_registrar {
  uint32_t abi_version; /* the host's TANDEM_NATIVE_ABI_VERSION */
  void* host;           /* opaque to the plugin */

  /* Registers `name` (an identifier of the language) with parameter kinds params[0..nparams)
   * and a result kind. A `native` declaration of a model binds to the entry of the same name
   * with matching kinds; a plugin's entry replaces a built-in or an earlier plugin's one.
   * Returns 0, or nonzero for a bad name, an unknown kind, a null fn, or a name this plugin
   * already registered; a failed add_native fails the whole load. */
  int (*add_native)(const tandem_registrar* r, const char* name, const tandem_kind* params,
                    size_t nparams, tandem_kind result, tandem_native_fn fn);

  /* Records why registration failed; shown to the user. */
  void (*report_error)(const tandem_registrar* r, const char* message);
};

/* The two entry points a plugin defines (declared here so their signatures are checked). */
TANDEM_NATIVE_EXPORT uint32_t tandem_natives_abi_version(void);
TANDEM_NATIVE_EXPORT int tandem_register_natives(const tandem_registrar* r);
typedef uint32_t (*tandem_abi_version_fn)(void);
typedef int (*tandem_register_natives_fn)(const tandem_registrar* r);

/* Write `TANDEM_NATIVE_PLUGIN_ABI;` once in a plugin, at file scope: defines
 * tandem_natives_abi_version. (The trailing redeclaration is there to take the semicolon.) */
#define TANDEM_NATIVE_PLUGIN_ABI                                                          \
  TANDEM_NATIVE_EXTERN_C TANDEM_NATIVE_EXPORT uint32_t tandem_natives_abi_version(void) { \
    return TANDEM_NATIVE_ABI_VERSION;                                                     \
  }                                                                                       \
  TANDEM_NATIVE_EXTERN_C uint32_t tandem_natives_abi_version(void)

#ifdef __cplusplus
}
#endif

#endif /* TANDEM_NATIVE_PLUGIN_H */
