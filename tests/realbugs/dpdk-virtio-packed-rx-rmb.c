// DPDK, drivers/net/virtio/virtio_rxtx.c: commit 4b058fdd27ce ("net/virtio:
// add missing read barrier for packed dequeue").
//
// In a packed virtqueue the device writes a used descriptor's id and len and
// then, after a write barrier, its flags (the used and avail bits). The
// driver's receive loop checked the flags (desc_is_used()) and then read the
// descriptor's len and id with no read barrier between, so a speculative
// load of the id could return a stale value (the reduction keeps the id). Message passing; the fix adds
// virtio_rmb() (rte_smp_rmb() for a software device) after the check. The
// analyzer must report missing-barrier in
// 'virtqueue_dequeue_burst_rx_packed' (the flags load is in its helper
// 'desc_is_used') for the load of 'vring_packed_desc.flags' before the load
// of 'vring_packed_desc.id', paired with 'vhost_flush_enqueue_packed'. The
// flags accesses are volatile here (plain in the original) so that the fixed
// version is quiet; the id is the payload and may stay plain.
//
// RUN: %barrierpair %s -fplugin-arg-barrierpair-primitives=%source/share/primitives/dpdk.def -Xclang -verify=before
// RUN: %barrierpair %s -fplugin-arg-barrierpair-primitives=%source/share/primitives/dpdk.def -DFIXED -Xclang -verify=fixed
// fixed-no-diagnostics
#include "Inputs/dpdk.h"

#define VRING_DESC_F_AVAIL (1 << 7)
#define VRING_DESC_F_USED (1 << 15)

struct vring_packed_desc {
  uint64_t addr;
  uint32_t len;
  uint16_t id;
  uint16_t flags;
};

struct virtqueue {
  struct vring_packed_desc *desc;
  void **cookies;
  uint16_t used_cons_idx;
  int used_wrap_counter;
};

static int desc_is_used(struct vring_packed_desc *desc, int wrap_counter) {
  uint16_t flags = *(volatile uint16_t *)&desc->flags; // before-note {{'virtqueue_dequeue_burst_rx_packed' loads 'vring_packed_desc.flags' here}}
  int used = !!(flags & VRING_DESC_F_USED), avail = !!(flags & VRING_DESC_F_AVAIL);
  return avail == used && used == wrap_counter;
}

uint16_t virtqueue_dequeue_burst_rx_packed(struct virtqueue *vq, void **pkts, uint16_t num) {
  uint16_t i;
  for (i = 0; i < num; i++) {
    struct vring_packed_desc *d = &vq->desc[vq->used_cons_idx];
    if (!desc_is_used(d, vq->used_wrap_counter))
      return i;
#ifdef FIXED
    rte_smp_rmb();
#endif
    pkts[i] = vq->cookies[d->id]; // before-warning {{load of 'vring_packed_desc.flags' before the load of 'vring_packed_desc.id' in 'virtqueue_dequeue_burst_rx_packed'}} \
                                     before-note {{scenario 3}}
    vq->used_cons_idx++;
  }
  return i;
}

/* The vhost back end, writing a used descriptor. */
void vhost_flush_enqueue_packed(struct vring_packed_desc *d, uint16_t id, uint16_t flags) {
  d->id = id;
  rte_smp_wmb(); // before-note {{'vhost_flush_enqueue_packed' orders the store to 'vring_packed_desc.id' before the store to 'vring_packed_desc.flags'}}
  *(volatile uint16_t *)&d->flags = flags;
}
