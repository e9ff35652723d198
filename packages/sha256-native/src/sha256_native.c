/*
 * The first 32-bit word of SHA-256 for one pre-padded block, with the x86 SHA extensions (SHA-NI).
 *
 * The engine already lays its message out as sixteen big-endian words with padding and length (`loadBlock`), so
 * the block goes across once, at attach(), and each hash is a call with no arguments. Passing the two strings and
 * converting them here measured slower (about 170 ns against 140 ns for loadBlock plus this call): N-API's string
 * copy costs more than the JS loop. Of the call itself, about 15 ns is N-API; the rest is the 32 dependent
 * rnds2 instructions.
 *
 * `attachBatch` hashes many prefixes with one value per call (the rollout filters of one context field), four
 * interleaved at a time, laying the blocks out itself from bytes.
 *
 * Only SHA-NI is worth a native call: a portable C compression is no faster than V8's JIT of the same code once
 * the call is paid for, so without SHA-NI the addon says `accelerated: false` and exports nothing to hash with.
 */
#define NAPI_VERSION 8
#include <node_api.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* MSVC has neither the target attribute nor __builtin_cpu_supports: Windows builds report no acceleration. */
#if (defined(__x86_64__) || defined(_M_X64)) && defined(__GNUC__)
#define HAVE_SHA_NI_CODE 1
#include <immintrin.h>
#else
#define HAVE_SHA_NI_CODE 0
#endif

#if HAVE_SHA_NI_CODE

static const uint32_t K[64] __attribute__((aligned(16))) = {
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

/* The message schedule: words 16–63 from the block's first 16 (m[0..3]), four per vector. */
__attribute__((target("sha,sse4.1,ssse3")))
static inline void expand_schedule(__m128i m[16]) {
  for (int i = 4; i < 16; i++) {
    __m128i t = _mm_add_epi32(_mm_sha256msg1_epu32(m[i - 4], m[i - 3]), _mm_alignr_epi8(m[i - 1], m[i - 2], 4));
    m[i] = _mm_sha256msg2_epu32(t, m[i - 1]);
  }
}

/*
 * The words are already numbers, not bytes, so unlike the usual SHA-NI code there is no byte shuffle on load:
 * on a little-endian CPU, lane i of a 128-bit load is word i, which is what sha256msg1/msg2 and rnds2 expect.
 * The schedule is not on the critical path (the rounds' chain is), so it is computed up front for clarity.
 */
__attribute__((target("sha,sse4.1,ssse3")))
static int32_t first_word_sha_ni(const uint32_t *block) {
  __m128i m[16];
  m[0] = _mm_loadu_si128((const __m128i *)(block + 0));
  m[1] = _mm_loadu_si128((const __m128i *)(block + 4));
  m[2] = _mm_loadu_si128((const __m128i *)(block + 8));
  m[3] = _mm_loadu_si128((const __m128i *)(block + 12));
  expand_schedule(m);
  /* rnds2 keeps the state as (A, B, E, F) and (C, D, G, H), highest lane first. */
  __m128i abef = _mm_set_epi32((int)0x6a09e667, (int)0xbb67ae85, 0x510e527f, (int)0x9b05688c);
  __m128i cdgh = _mm_set_epi32(0x3c6ef372, (int)0xa54ff53a, 0x1f83d9ab, 0x5be0cd19);
  for (int i = 0; i < 16; i++) {
    __m128i wk = _mm_add_epi32(m[i], _mm_load_si128((const __m128i *)(K + 4 * i)));
    cdgh = _mm_sha256rnds2_epu32(cdgh, abef, wk);
    abef = _mm_sha256rnds2_epu32(abef, cdgh, _mm_shuffle_epi32(wk, 0x0e));
  }
  return (int32_t)((uint32_t)_mm_extract_epi32(abef, 3) + 0x6a09e667u);
}

/*
 * Four messages at once. One hash is a chain of 32 dependent rnds2 (about 4 cycles each), which leaves the SHA
 * unit idle most of the time; four independent chains interleaved keep it busy, so four hashes cost little more
 * than one. Each block is 64 bytes, already padded; the shuffle turns its big-endian words into lanes.
 */
__attribute__((target("sha,sse4.1,ssse3")))
static void first_words_x4(const uint8_t *const blocks[4], int32_t out[4]) {
  const __m128i swap = _mm_set_epi8(12, 13, 14, 15, 8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3);
  __m128i m[4][16];
  __m128i abef[4];
  __m128i cdgh[4];
  for (int s = 0; s < 4; s++) {
    for (int i = 0; i < 4; i++) m[s][i] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(blocks[s] + 16 * i)), swap);
    expand_schedule(m[s]);
    abef[s] = _mm_set_epi32((int)0x6a09e667, (int)0xbb67ae85, 0x510e527f, (int)0x9b05688c);
    cdgh[s] = _mm_set_epi32(0x3c6ef372, (int)0xa54ff53a, 0x1f83d9ab, 0x5be0cd19);
  }
  for (int i = 0; i < 16; i++) {
    const __m128i k = _mm_load_si128((const __m128i *)(K + 4 * i));
    for (int s = 0; s < 4; s++) {
      __m128i wk = _mm_add_epi32(m[s][i], k);
      cdgh[s] = _mm_sha256rnds2_epu32(cdgh[s], abef[s], wk);
      abef[s] = _mm_sha256rnds2_epu32(abef[s], cdgh[s], _mm_shuffle_epi32(wk, 0x0e));
    }
  }
  for (int s = 0; s < 4; s++) out[s] = (int32_t)((uint32_t)_mm_extract_epi32(abef[s], 3) + 0x6a09e667u);
}

static int cpu_has_sha_ni(void) {
  __builtin_cpu_init();
  return __builtin_cpu_supports("sha") && __builtin_cpu_supports("sse4.1") && __builtin_cpu_supports("ssse3");
}

/* One attached block: the function attach() returns holds this as its data, and frees it when collected. */
typedef struct {
  const uint32_t *block;
  napi_ref block_ref;
} attached_t;

static napi_value first_word(napi_env env, napi_callback_info info) {
  attached_t *attached;
  napi_value result;
  if (napi_get_cb_info(env, info, NULL, NULL, NULL, (void **)&attached) != napi_ok) return NULL;
  if (napi_create_int32(env, first_word_sha_ni(attached->block), &result) != napi_ok) return NULL;
  return result;
}

static void release_attached(napi_env env, void *data, void *hint) {
  attached_t *attached = (attached_t *)data;
  (void)hint;
  napi_delete_reference(env, attached->block_ref);
  free(attached);
}

/*
 * The data of a typed array of `type` with at least `min` elements, or NULL. Asking for the data pointer moves the
 * array's storage off the V8 heap if it was there, so it stays put afterwards.
 */
static void *typed_data(napi_env env, napi_value value, napi_typedarray_type type, size_t min, size_t *length) {
  bool is_typed_array = false;
  napi_typedarray_type actual = napi_int8_array;
  void *data = NULL;
  if (napi_is_typedarray(env, value, &is_typed_array) != napi_ok || !is_typed_array) return NULL;
  if (napi_get_typedarray_info(env, value, &actual, length, &data, NULL, NULL) != napi_ok) return NULL;
  return actual == type && *length >= min ? data : NULL;
}

/*
 * attach(block: Int32Array of at least 16 elements) returns firstWord(), which hashes that block's first 16 words.
 * A function per block rather than one shared "current block": two copies of the engine in one process (its ESM
 * and CJS builds, say) load this addon once, and a shared block would let one hash the other's input.
 */
static napi_value attach(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value arg;
  if (napi_get_cb_info(env, info, &argc, &arg, NULL, NULL) != napi_ok) return NULL;
  size_t length = 0;
  void *data = argc >= 1 ? typed_data(env, arg, napi_int32_array, 16, &length) : NULL;
  if (data == NULL) {
    napi_throw_type_error(env, NULL, "attach: expected an Int32Array of at least 16 elements");
    return NULL;
  }
  attached_t *attached = (attached_t *)malloc(sizeof(attached_t));
  if (attached == NULL) {
    napi_throw_error(env, NULL, "attach: out of memory");
    return NULL;
  }
  attached->block = (const uint32_t *)data;
  napi_value fn;
  if (napi_create_reference(env, arg, 1, &attached->block_ref) != napi_ok) {
    free(attached);
    return NULL;
  }
  if (napi_create_function(env, "firstWord", NAPI_AUTO_LENGTH, first_word, attached, &fn) != napi_ok ||
      napi_add_finalizer(env, fn, attached, release_attached, NULL, NULL) != napi_ok) {
    napi_delete_reference(env, attached->block_ref);
    free(attached);
    return NULL;
  }
  return fn;
}

/*
 * A batch: many prefixes, one value. Each 64-byte slot of `prefixes` holds a prefix's bytes with its length in the
 * slot's last byte; `value` holds the value's bytes; `out` gets one word per slot. The rollout filters of a
 * snapshot hash `<flag key>.` + the same user id, so one call hashes all of them, four at a time.
 */
typedef struct {
  const uint8_t *prefixes;
  const uint8_t *value;
  int32_t *out;
  size_t count;
  napi_ref refs[3];
} batch_t;

#define BATCH_SLOT 64
#define ONE_BLOCK_MAX 55

/* The padded block of prefix + value; false when it needs more than one block (the caller hashes it elsewhere). */
static int make_block(uint8_t block[64], const uint8_t *slot, const uint8_t *value, size_t value_length) {
  size_t prefix_length = slot[BATCH_SLOT - 1];
  size_t length = prefix_length + value_length;
  if (prefix_length > ONE_BLOCK_MAX || length > ONE_BLOCK_MAX) return 0;
  memset(block, 0, 64);
  memcpy(block, slot, prefix_length);
  memcpy(block + prefix_length, value, value_length);
  block[length] = 0x80;
  uint32_t bits = (uint32_t)length * 8;
  block[60] = (uint8_t)(bits >> 24);
  block[61] = (uint8_t)(bits >> 16);
  block[62] = (uint8_t)(bits >> 8);
  block[63] = (uint8_t)bits;
  return 1;
}

/* Hashes the first `filled` lanes into out[targets[s]]; idle lanes repeat the first block, their words dropped. */
static void hash_lanes(const uint8_t *lanes[4], size_t filled, const size_t targets[4], int32_t *out) {
  int32_t words[4];
  for (size_t s = filled; s < 4; s++) lanes[s] = lanes[0];
  first_words_x4(lanes, words);
  for (size_t s = 0; s < filled; s++) out[targets[s]] = words[s];
}

/* firstWords(valueLength): fills `out` for every slot whose prefix and value fit one block (0 for the others). */
static napi_value first_words(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value arg;
  batch_t *batch;
  double length = -1;
  if (napi_get_cb_info(env, info, &argc, &arg, NULL, (void **)&batch) != napi_ok) return NULL;
  /* Written so that NaN fails too. */
  if (argc < 1 || napi_get_value_double(env, arg, &length) != napi_ok || !(length >= 0 && length <= ONE_BLOCK_MAX) ||
      length != (double)(int32_t)length) {
    napi_throw_range_error(env, NULL, "firstWords: expected a value length from 0 to 55");
    return NULL;
  }
  int32_t value_length = (int32_t)length;
  uint8_t blocks[4][64] __attribute__((aligned(16)));
  const uint8_t *lanes[4];
  size_t targets[4];
  size_t filled = 0;
  for (size_t i = 0; i < batch->count; i++) {
    batch->out[i] = 0;
    if (!make_block(blocks[filled], batch->prefixes + i * BATCH_SLOT, batch->value, (size_t)value_length)) continue;
    lanes[filled] = blocks[filled];
    targets[filled++] = i;
    if (filled == 4) {
      hash_lanes(lanes, 4, targets, batch->out);
      filled = 0;
    }
  }
  if (filled > 0) hash_lanes(lanes, filled, targets, batch->out);
  return NULL;
}

static void release_batch(napi_env env, void *data, void *hint) {
  batch_t *batch = (batch_t *)data;
  (void)hint;
  for (int i = 0; i < 3; i++) napi_delete_reference(env, batch->refs[i]);
  free(batch);
}

/*
 * attachBatch(prefixes: Uint8Array, value: Uint8Array, out: Int32Array) returns firstWords(valueLength): one word
 * per element of `out`, from the slot of `prefixes` at the same index (so `prefixes` needs 64 bytes per element).
 */
static napi_value attach_batch(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value args[3];
  if (napi_get_cb_info(env, info, &argc, args, NULL, NULL) != napi_ok) return NULL;
  size_t out_length = 0;
  size_t prefixes_length = 0;
  size_t value_length = 0;
  int32_t *out = argc >= 3 ? (int32_t *)typed_data(env, args[2], napi_int32_array, 0, &out_length) : NULL;
  uint8_t *prefixes = out ? (uint8_t *)typed_data(env, args[0], napi_uint8_array, out_length * BATCH_SLOT, &prefixes_length) : NULL;
  uint8_t *value = prefixes ? (uint8_t *)typed_data(env, args[1], napi_uint8_array, ONE_BLOCK_MAX, &value_length) : NULL;
  if (value == NULL) {
    napi_throw_type_error(env, NULL, "attachBatch: expected (Uint8Array of 64 bytes per word, Uint8Array of at least 55 bytes, Int32Array)");
    return NULL;
  }
  batch_t *batch = (batch_t *)calloc(1, sizeof(batch_t));
  if (batch == NULL) {
    napi_throw_error(env, NULL, "attachBatch: out of memory");
    return NULL;
  }
  batch->prefixes = prefixes;
  batch->value = value;
  batch->out = out;
  batch->count = out_length;
  int created = 0;
  while (created < 3 && napi_create_reference(env, args[created], 1, &batch->refs[created]) == napi_ok) created++;
  napi_value fn;
  if (created < 3 || napi_create_function(env, "firstWords", NAPI_AUTO_LENGTH, first_words, batch, &fn) != napi_ok ||
      napi_add_finalizer(env, fn, batch, release_batch, NULL, NULL) != napi_ok) {
    for (int i = 0; i < created; i++) napi_delete_reference(env, batch->refs[i]);
    free(batch);
    return NULL;
  }
  return fn;
}

#endif /* HAVE_SHA_NI_CODE */

static napi_value init(napi_env env, napi_value exports) {
  napi_value accelerated;
  int sha_ni = 0;
#if HAVE_SHA_NI_CODE
  sha_ni = cpu_has_sha_ni();
#endif
  if (napi_get_boolean(env, sha_ni != 0, &accelerated) != napi_ok) return NULL;
  if (napi_set_named_property(env, exports, "accelerated", accelerated) != napi_ok) return NULL;
#if HAVE_SHA_NI_CODE
  if (sha_ni) {
    napi_value fn;
    if (napi_create_function(env, "attach", NAPI_AUTO_LENGTH, attach, NULL, &fn) != napi_ok) return NULL;
    if (napi_set_named_property(env, exports, "attach", fn) != napi_ok) return NULL;
    if (napi_create_function(env, "attachBatch", NAPI_AUTO_LENGTH, attach_batch, NULL, &fn) != napi_ok) return NULL;
    if (napi_set_named_property(env, exports, "attachBatch", fn) != napi_ok) return NULL;
  }
#endif
  return exports;
}

NAPI_MODULE(NODE_GYP_MODULE_NAME, init)
