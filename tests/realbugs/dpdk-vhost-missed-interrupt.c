// DPDK, lib/librte_vhost/vhost_rxtx.c: commit 159793ac867b ("vhost: fix
// virtio freeze due to missed interrupt").
//
// After putting packets in the used ring, the vhost back end stores the new
// used->idx and then reads avail->flags to decide whether to interrupt the
// guest. The guest driver, before it stops polling, clears
// VRING_AVAIL_F_NO_INTERRUPT in avail->flags (in its own helper), issues a
// full barrier and reads used->idx once more. Store then load on both sides
// (Dekker): without a full barrier between the store of used->idx and the
// load of avail->flags, the host could see interrupts still suppressed while
// the guest saw no new buffers, and the guest froze. The fix adds rte_mb().
// The analyzer must report missing-barrier in 'virtio_dev_rx' for the store
// to 'vring_used.idx' before the load of 'vring_avail.flags', paired with
// 'virtio_recv_pkts' (whose store is in 'virtqueue_enable_intr'). The load
// of avail->flags is volatile here (plain in the original) so that the
// fixed version is quiet.
//
// RUN: %barrierpair %s -fplugin-arg-barrierpair-primitives=%source/share/primitives/dpdk.def -Xclang -verify=before
// RUN: %barrierpair %s -fplugin-arg-barrierpair-primitives=%source/share/primitives/dpdk.def -DFIXED -Xclang -verify=fixed
// fixed-no-diagnostics
#include "Inputs/dpdk.h"

#define VRING_AVAIL_F_NO_INTERRUPT 1
#define RING_SIZE 256

struct vring_avail {
  uint16_t flags, idx;
  uint16_t ring[RING_SIZE];
};

struct vring_used_elem {
  uint32_t id, len;
};

struct vring_used {
  uint16_t flags, idx;
  struct vring_used_elem ring[RING_SIZE];
};

struct vhost_virtqueue {
  struct vring_avail *avail;
  struct vring_used *used;
  uint16_t last_used_idx;
};

extern void eventfd_kick(struct vhost_virtqueue *vq);

void virtio_dev_rx(struct vhost_virtqueue *vq, uint32_t id, uint32_t len) {
  uint16_t idx = vq->last_used_idx++;
  vq->used->ring[idx % RING_SIZE].id = id;
  vq->used->ring[idx % RING_SIZE].len = len;
  rte_smp_wmb();
  *(volatile uint16_t *)&vq->used->idx += 1;
#ifdef FIXED
  rte_mb();
#endif
  if (!(*(volatile uint16_t *)&vq->avail->flags & VRING_AVAIL_F_NO_INTERRUPT)) // before-warning {{store to 'vring_used.idx' before the load of 'vring_avail.flags' in 'virtio_dev_rx'}} \
                                                                                  before-note {{scenario 10}}
    eventfd_kick(vq);
}

/* The guest driver. */
struct virtqueue {
  struct vring_avail *avail;
  struct vring_used *used;
  uint16_t used_cons_idx;
};

static void virtqueue_enable_intr(struct virtqueue *vq) {
  *(volatile uint16_t *)&vq->avail->flags &= ~VRING_AVAIL_F_NO_INTERRUPT;
}

int virtio_recv_pkts(struct virtqueue *vq) {
  virtqueue_enable_intr(vq);
  rte_smp_mb(); // before-note {{'virtio_recv_pkts' orders the store to 'vring_avail.flags' before the load of 'vring_used.idx'}}
  return *(volatile uint16_t *)&vq->used->idx != vq->used_cons_idx;
}
