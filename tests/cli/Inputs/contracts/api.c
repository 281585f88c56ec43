/* A library's API: a publication whose write barrier is gone, and a read
 * section whose full barrier is there. */
#include <urcu/arch.h>
#include <urcu/system.h>

void *api_head;
unsigned long api_readers;

void api_publish(void *node) {
  CMM_STORE_SHARED(api_head, node);
}

void api_read_begin(void) {
  CMM_STORE_SHARED(api_readers, 1);
  cmm_smp_mb();
}
