// aws-encryption-sdk-c, include/aws/cryptosdk/materials.h: commit
// 492a62454f31 ("Strengthen memory_order for refcount_down"), issue #432.
//
// aws_cryptosdk_private_refcount_down() decremented an object's reference
// count with a release fetch-and-subtract and returned whether it was the
// last reference; the caller then tore the object down through its vtable.
// Every holder writes the object before dropping its reference, and the
// last one reads it while tearing it down: message passing through the
// count, where the teardown needs an acquire, or it may read what another
// holder wrote before its release as not yet written (and free memory that
// holder still writes to). The fix makes the decrement acq_rel. The
// analyzer must report missing-barrier in 'cmm_release' for the load of the
// count ('cmm.refcount', the decrement's read) before the load of
// 'cmm.cached', paired with 'cmm_generate'.
//
// RUN: %barrierpair %s -Xclang -verify=before
// RUN: %barrierpair %s -DFIXED -Xclang -verify=fixed
// fixed-no-diagnostics
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>

struct cmm {
  _Atomic size_t refcount;
  int cached;
};

// (The original takes the count's own address; here the helper is handed
// the object, whose count it decrements.)
static bool refcount_down(struct cmm *cmm) {
#ifdef FIXED
  size_t old_count = atomic_fetch_sub_explicit(&cmm->refcount, 1, memory_order_acq_rel);
#else
  size_t old_count = atomic_fetch_sub_explicit(&cmm->refcount, 1, memory_order_release); // before-note {{'cmm_generate' orders the store to 'cmm.cached' before the store to 'cmm.refcount'}} before-note {{'cmm_release' loads 'cmm.refcount' here}}
#endif
  return old_count == 1;
}

void cmm_release(struct cmm *cmm) {
  if (refcount_down(cmm)) {
    // before-warning@+2 {{no barrier orders the load of 'cmm.refcount' before the load of 'cmm.cached' in 'cmm_release'; with 'cmm_generate' this is scenario 3 (message passing), which needs atomic_thread_fence(memory_order_acquire) here}}
    // before-note@+1 {{scenario 3}}
    if (cmm->cached)
      abort();
    free(cmm);
  }
}

void cmm_generate(struct cmm *cmm) {
  cmm->cached = 1;
  refcount_down(cmm);
}
