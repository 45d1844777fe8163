// driver.h -- what the reference driver's wrappers share (see driver.c).
//
// A chapter's wrappers live in tests/reference/fns_chNN.c:
//
//   #include "driver.h"
//   #include "variants/linear_attention.h"
//   FN(linear_attention) { ...; return status; }
//   const ref_entry REF_fns_ch05[] = { ENTRY(linear_attention), {0} };
//
// The build finds every fns_*.c and adds its REF_<file name> table; the
// matching Python entries go into cases_chNN.py.
#ifndef DRIVER_H
#define DRIVER_H

#include <stddef.h>
#include <stdint.h>

#include "layers/ffn.h"
#include "layers/layernorm.h"
#include "layers/multihead.h"

enum { MAX_ARGS = 64, MAX_SCRATCH = 16, GUARD = 16 };

// One case: its parameters and buffers.
typedef struct {
    const char *name;
    int ni, nr, nin, nout;
    long i[MAX_ARGS];            // integer parameters
    double r[MAX_ARGS];          // real parameters
    long in_len[MAX_ARGS], out_len[MAX_ARGS];
    float *in[MAX_ARGS];         // input arrays
    float *out[MAX_ARGS];        // output arrays (+ GUARD sentinel floats each)
    void *scratch[MAX_SCRATCH];  // freed after the case
    int n_scratch;
} call;

typedef struct {
    const char *name;
    int (*run)(call *c);
} ref_entry;

void die(const call *c, const char *what);          // one line on stderr, exit 2
void *scratch(call *c, size_t bytes);               // freed after the case
long arg_i(const call *c, int k);
double arg_r(const call *c, int k);
float *arg_in(const call *c, int k);                // NULL if sent empty
float *arg_out(const call *c, int k);
unsigned char *arg_mask(call *c, int k);            // input k as 0/1 bytes
float *copy_in(call *c, int k_out, int k_in);       // output k_out = input k_in
unsigned char *bytes_for(call *c, int k);           // byte output, see put_bytes
void put_bytes(call *c, int k, const unsigned char *b);

// Parameters packed in consecutive inputs starting at k (see driver.c).
mha_params_t mha_from(call *c, int k, int d_model, int n_heads);
ffn_params_t ffn_from(call *c, int k, int d_model, int d_ff);
layernorm_params_t ln_from(call *c, int k, int d);

#define FN(name) static int run_##name(call *c)
#define ENTRY(name) {#name, run_##name}
#define I(k) ((int)arg_i(c, (k)))
#define R(k) arg_r(c, (k))
#define IN(k) arg_in(c, (k))
#define MASK(k) arg_mask(c, (k))
#define OUT(k) arg_out(c, (k))

#endif
