// A field named by its type (`link.prev` of any `struct link`) reached in
// containers of different kinds, one access through `ctx->list`, the other
// through `flctx->leases`, is two different pieces of memory: a pairing
// claims that both of its links meet on one instance, so a link between
// two containers' fields is none (the kernel's NFS open files against a
// lease list, both `list_head`). One container holding the other is still
// one instance (`holder->ctx.list.prev` ends like `ctx->list.prev`), and
// so is the same container's field on both sides. The same path in a
// container of another type (`named->list.prev` of a `struct lease_list`)
// is other memory again.
//
// RUN: %barrierpair %s -Xclang -verify
// RUN: %barrierpair %s -DOTHER_CONTAINER -Xclang -verify
// RUN: %barrierpair %s -fplugin-arg-barrierpair-beta -DSAME_LIST -Xclang -verify=same
// RUN: %barrierpair %s -fplugin-arg-barrierpair-beta -DHELD_CONTAINER -Xclang -verify=same
// expected-no-diagnostics
#include "kernel.h"

struct link {
  struct link *next, *prev;
};

struct open_ctx {
  struct link list;
  int mode;
};

struct lease_ctx {
  struct link leases;
};

struct lease_list {
  struct link list;
};

struct ctx_holder {
  int flags;
  struct open_ctx ctx;
};

struct inode_info {
  struct link open_files;
  struct lease_ctx *flctx;
  struct open_ctx *last;
  struct ctx_holder *holder;
  struct lease_list *named;
};

// Reaches links through a pointer to one: any instance.
void link_init(struct link *link) {
  WRITE_ONCE(link->next, link);
  WRITE_ONCE(link->prev, link);
}

void attach(struct inode_info *info, struct open_ctx *ctx) {
  if (READ_ONCE(info->open_files.next) != &info->open_files) // same-note {{'attach' depends on the value of 'inode_info.open_files.next' read here}}
    return;
  WRITE_ONCE(ctx->list.prev, &info->open_files); // same-warning {{only a dependency orders the load of 'inode_info.open_files.next' before the store to 'open_ctx.list.prev' in 'attach'; with 'lease_check' this is scenario 4, which needs smp_mb() here}} \
                                                    same-note {{scenario 4 forbids}}
}

int lease_check(struct inode_info *info) {
#if defined(SAME_LIST)
  struct link *prev = READ_ONCE(info->last->list.prev);
#elif defined(OTHER_CONTAINER)
  struct link *prev = READ_ONCE(info->named->list.prev);
#elif defined(HELD_CONTAINER)
  struct link *prev = READ_ONCE(info->holder->ctx.list.prev);
#else
  struct link *prev = READ_ONCE(info->flctx->leases.prev);
#endif
  smp_mb(); // same-note-re {{'lease_check' orders the load of '{{(open_ctx|ctx_holder.ctx)}}.list.prev' before the load of 'inode_info.open_files.next' with 'smp_mb()'}}
  return prev != READ_ONCE(info->open_files.next);
}
