/* transitive-weak-barrier: cycles of three or more functions. F1 orders A
 * before B, F2 orders B before C, ..., Fk orders Z before A. rmb and wmb
 * are not transitive, so every explicit rmb or wmb on such a cycle is too
 * weak (the article's three-CPU example); acquire and release are
 * transitive in C11 and the kernel model, so their implied barriers are not
 * reported.
 *
 * With --beta, the same search finds missing-barrier's cycles: every link
 * ordered by a full barrier written in the code but one, whose function
 * marks both its accesses (the programmer said "this races") and orders
 * them with nothing (3.SB with one smp_mb() left out: LKMM allows the
 * cycle). Not yet proven quiet on real code: two findings on liburcu that
 * no triage has confirmed.
 *
 * By default, it also finds missing-barrier's dependency links: a link
 * ordered only by a dependency, which LKMM does not make cumulative, where
 * the cycle needs it to carry another function's store on
 * (dependency_not_cumulative: ISA2 with a release and dependencies). */
#include "rules/rules.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
  bp_analysis *analysis;
  size_t *from;              /* per object: its first ordering; from[object + 1] ends them */
  size_t path[BP_CHAIN_MAX]; /* ordering indexes */
  size_t length;
  size_t unbarriered; /* links of the path with no barrier: at most one */
} search;

static const bp_ordering *ordering_at(const bp_analysis *analysis, size_t index) {
  return bp_vec_at(&analysis->orderings, index);
}

/* Two accesses to one object communicate only if one of them stores. */
static bool communicates(bp_access_kind a, bp_access_kind b) {
  return a == BP_ACCESS_STORE || b == BP_ACCESS_STORE;
}

/* An rmb or wmb on a cycle (the article's rule); or a release or an acquire
 * on a cycle with two or more links that are not reads-from, where LKMM
 * finds them only locally transitive. */
static bool weak_link(const bp_engine *engine, const bp_ordering *link, int other_links) {
  const bp_event *barrier = bp_event_get(engine, link->barrier);
  if (!barrier || barrier->type != BP_EVENT_BARRIER ||
      (link->strength & BP_STRENGTH_FULL) == BP_STRENGTH_FULL)
    return false;
  return !barrier->implicit || ((link->strength & BP_STRENGTH_LOCAL) && other_links >= 2);
}

/* --model=lkmm: an rmb between two loads, or a wmb between two stores, on a
 * cycle that a full barrier orders elsewhere. */
static bool lkmm_accepts(const search *s, const bp_ordering *link) {
  unsigned kind = link->first_kind == BP_ACCESS_LOAD && link->second_kind == BP_ACCESS_LOAD
                      ? BP_STRENGTH_LOADS
                  : link->first_kind == BP_ACCESS_STORE && link->second_kind == BP_ACCESS_STORE
                      ? BP_STRENGTH_STORES
                      : BP_STRENGTH_FULL;
  if ((link->strength & kind) != kind)
    return false;
  for (size_t i = 0; i < s->length; i++) {
    const bp_ordering *other = ordering_at(s->analysis, s->path[i]);
    if ((other->strength & BP_STRENGTH_FULL) == BP_STRENGTH_FULL)
      return true;
  }
  return false;
}

/* Link i's second access is a store that link i + 1's function reads (or
 * overwrites with a read-modify-write, which reads the latest value). */
static bool reads_from_next(const search *s, size_t i) {
  const bp_ordering *link = ordering_at(s->analysis, s->path[i]);
  const bp_ordering *next = ordering_at(s->analysis, s->path[(i + 1) % s->length]);
  return link->second_kind == BP_ACCESS_STORE &&
         (next->first_kind == BP_ACCESS_LOAD ||
          bp_read_modify_write(s->analysis->engine, next->first));
}

static int links_not_reads_from(const search *s) {
  int count = 0;
  for (size_t i = 0; i < s->length; i++)
    count += !reads_from_next(s, i);
  return count;
}

static bool full_barrier_link(const bp_engine *engine, const bp_ordering *link) {
  const bp_event *barrier =
      link->barrier == BP_NO_EVENT ? NULL : bp_event_get(engine, link->barrier);
  return barrier && barrier->type == BP_EVENT_BARRIER &&
         (link->strength & BP_STRENGTH_FULL) == BP_STRENGTH_FULL;
}

/* Link d is ordered by a dependency, which LKMM does not make cumulative:
 * it orders what the function read before what it does next, but not the
 * stores of other functions it saw. It is enough where it ends the cycle's
 * way back (its second access is read or overwritten by a function that
 * reaches it by no reads-from chain: MP+wmb+addr), or where a full barrier
 * comes before it on a chain of reads-from (ISA2+mb+ctrl+addr). Going back
 * from it across a link that is not reads-from first, with no full barrier
 * on the way, it carries another function's store on (ISA2 with a release
 * and dependencies, which LKMM allows). */
static bool dependency_not_cumulative(const search *s, size_t d) {
  const bp_engine *engine = s->analysis->engine;
  if (!reads_from_next(s, d))
    return false;
  for (size_t k = 1; k < s->length; k++) {
    size_t i = (d + s->length - k) % s->length;
    if (!reads_from_next(s, i))
      return true;
    if (full_barrier_link(engine, ordering_at(s->analysis, s->path[i])))
      return false;
  }
  return false; /* reads-from all the way round (3.LB+ctrl+ctrl+ctrl) */
}

/* The orderings are sorted by first object: one pass finds where each
 * object's begin, so a step of the search starts without a binary search
 * over all of them (a cache miss at every level for a large program). */
static size_t *index_first_objects(const bp_analysis *analysis) {
  size_t objects = analysis->engine->object_displays.count;
  size_t *from = malloc((objects + 1) * sizeof *from);
  if (!from)
    abort();
  size_t next = 0;
  for (size_t object = 0; object <= objects; object++) {
    while (next < analysis->orderings.count && ordering_at(analysis, next)->first_object < object)
      next++;
    from[object] = next;
  }
  return from;
}

/* The orderings from `first` to `second` begin at the returned index. */
static size_t first_between(const search *s, uint32_t first, uint32_t second) {
  size_t low = s->from[first], high = s->from[first + 1];
  while (low < high) {
    size_t middle = (low + high) / 2;
    if (ordering_at(s->analysis, middle)->second_object < second)
      low = middle + 1;
    else
      high = middle;
  }
  return low;
}

static bool on_path(const search *s, const bp_ordering *candidate) {
  for (size_t i = 0; i < s->length; i++) {
    const bp_ordering *link = ordering_at(s->analysis, s->path[i]);
    if (link->function == candidate->function)
      return true;
    /* returning to the start object closes the cycle; any other repeat does not */
    if (i > 0 && link->first_object == candidate->second_object)
      return true;
  }
  return false;
}

static bp_side side_of(const bp_ordering *ordering) {
  return (bp_side){ordering->function, ordering->first, ordering->second, ordering->barrier,
                   ordering->strength};
}

/* A link with no barrier that may close a cycle of barriered links: both
 * its accesses marked, nothing between them. */
static bool racing_link(const bp_engine *engine, const bp_ordering *link) {
  return link->strength == 0 && link->barrier == BP_NO_EVENT &&
         bp_event_get(engine, link->first)->marked && bp_event_get(engine, link->second)->marked;
}

/* A finding of `rule` at `at` on link `from` of the cycle, with the cycle
 * from that link on; NULL when the rule is disabled. */
static bp_finding *add_cycle_finding(const search *s, bp_rule rule, size_t from, uint32_t at) {
  bp_finding *finding = bp_add_candidate(s->analysis, rule);
  if (!finding)
    return NULL;
  finding->at = at;
  finding->need = BP_STRENGTH_FULL;
  finding->chain_length = (uint32_t)s->length;
  for (size_t k = 0; k < s->length; k++)
    finding->chain[k] = side_of(ordering_at(s->analysis, s->path[(from + k) % s->length]));
  finding->side = finding->chain[0];
  finding->partner = finding->chain[1];
  return finding;
}

/* Every other link of the cycle has a full barrier written in the code:
 * the cycle is a protocol the programmer ordered on purpose. */
static bool ordered_on_purpose(const search *s) {
  for (size_t i = 0; i < s->length; i++) {
    const bp_ordering *link = ordering_at(s->analysis, s->path[i]);
    if (!link->strength)
      continue;
    const bp_event *barrier = bp_event_get(s->analysis->engine, link->barrier);
    if ((link->strength & BP_STRENGTH_FULL) != BP_STRENGTH_FULL || !barrier ||
        barrier->type != BP_EVENT_BARRIER || barrier->implicit)
      return false;
  }
  return true;
}

static void report_missing_link(search *s) {
  bp_analysis *analysis = s->analysis;
  if (!ordered_on_purpose(s))
    return;
  for (size_t i = 0; i < s->length; i++) {
    const bp_ordering *link = ordering_at(analysis, s->path[i]);
    if (link->strength)
      continue;
    bp_finding *finding = add_cycle_finding(s, BP_RULE_MISSING_BARRIER, i, link->second);
    if (!finding)
      return;
    finding->scenario = -1;
    finding->family = bp_event_family(analysis->engine, finding->partner.barrier);
  }
}

/* The thread-local variable whose own instance link `i` accesses; NULL for
 * none. What holds the memory (bp_event_root_type) names a variable as
 * "T@name"; memory reached through a pointer field of it names the
 * pointer's type (`defer_queue.q[]` is "void *"). */
static const char *own_instance(const search *s, size_t i) {
  const bp_engine *engine = s->analysis->engine;
  const bp_ordering *link = ordering_at(s->analysis, s->path[i]);
  const uint32_t accesses[2] = {link->first, link->second};
  for (size_t k = 0; k < 2; k++) {
    const char *type = bp_event_root_type(engine, accesses[k]);
    if (bp_event_get(engine, accesses[k])->thread_own && strchr(type, '@'))
      return type;
  }
  return NULL;
}

/* Two functions of the cycle reach its objects through the running
 * thread's own instance of one thread-local variable (liburcu's deferrer
 * queues into its `defer_queue` and, unregistering, frees it): the cycle
 * ties them to one instance, so they run on one thread, one after the
 * other in its program order. That is no cycle of as many CPUs as it has
 * functions, and the article's rule is about CPUs. */
static bool one_thread_twice(const search *s) {
  for (size_t i = 0; i < s->length; i++) {
    const char *variable = own_instance(s, i);
    if (!variable)
      continue;
    uint32_t function = ordering_at(s->analysis, s->path[i])->function;
    for (size_t j = i + 1; j < s->length; j++) {
      const char *other = own_instance(s, j);
      if (other && strcmp(other, variable) == 0 &&
          ordering_at(s->analysis, s->path[j])->function != function)
        return true;
    }
  }
  return false;
}

static bool reached_by_type(const bp_engine *engine, uint32_t access) {
  return !bp_variable_object(engine, bp_event_instance_object(engine, access));
}

/* An access of the cycle reaches its object by type (a field through a
 * pointer), not as a variable or a field of one: that each of three or
 * more functions reaches the one instance the cycle needs is a guess at
 * every such access. */
static bool meets_by_type(const search *s) {
  const bp_engine *engine = s->analysis->engine;
  for (size_t i = 0; i < s->length; i++) {
    const bp_ordering *link = ordering_at(s->analysis, s->path[i]);
    if (reached_by_type(engine, link->first) || reached_by_type(engine, link->second))
      return true;
  }
  return false;
}

static void report_cycle(search *s) {
  bp_analysis *analysis = s->analysis;
  const bp_engine *engine = analysis->engine;
  for (size_t i = 0; i < s->length; i++)
    if (ordering_at(analysis, s->path[i])->strength)
      bp_mark_paired(analysis, ordering_at(analysis, s->path[i])->barrier);
  for (size_t i = 0; i < s->length; i++)
    if (!bp_claimed(ordering_at(analysis, s->path[i])))
      return; /* a link nobody ordered on purpose: the cycle is no claim */
  if (one_thread_twice(s) || (!analysis->options->beta && meets_by_type(s)))
    return;
  if (s->unbarriered) {
    report_missing_link(s);
    return;
  }
  int other_links = links_not_reads_from(s);
  for (size_t i = 0; i < s->length; i++) {
    const bp_ordering *link = ordering_at(analysis, s->path[i]);
    if (bp_dependency(engine, link->barrier) && dependency_not_cumulative(s, i)) {
      bp_finding *finding = add_cycle_finding(s, BP_RULE_MISSING_BARRIER, i, link->second);
      if (!finding)
        return;
      finding->scenario = -1;
      finding->family = bp_event_family(engine, link->barrier);
      continue;
    }
    if (!weak_link(engine, link, other_links) ||
        (analysis->options->model_lkmm && lkmm_accepts(s, link)))
      continue;
    bp_finding *finding = add_cycle_finding(s, BP_RULE_TRANSITIVE_WEAK_BARRIER, i, link->barrier);
    if (!finding)
      return;
    finding->family = bp_event_family(engine, link->barrier);
  }
}

static void extend(search *s) {
  bp_analysis *analysis = s->analysis;
  const bp_ordering *start = ordering_at(analysis, s->path[0]);
  const bp_ordering *last = ordering_at(analysis, s->path[s->length - 1]);
  /* Each cycle once: from its lowest ordering, so no link sorts before
   * path[0]; and the last link can only return to the start. Both bound the
   * scan: a start that reaches an object every module uses (a global flag)
   * would otherwise walk all of that object's orderings. */
  size_t j = s->from[last->second_object], end = s->from[last->second_object + 1];
  bool closing = s->length == BP_CHAIN_MAX - 1;
  if (closing)
    j = first_between(s, last->second_object, start->first_object);
  /* an unbarriered link may sort before the start, which is barriered */
  if (j <= s->path[0] && (s->unbarriered || !analysis->options->beta))
    j = s->path[0] + 1;
  for (; j < end; j++) {
    const bp_ordering *next = ordering_at(analysis, j);
    if (closing && next->second_object != start->first_object)
      break;
    bool unbarriered = next->strength == 0;
    if ((unbarriered
             ? !analysis->options->beta || s->unbarriered || !racing_link(analysis->engine, next)
             : j <= s->path[0]) ||
        !next->instances_go_together || on_path(s, next) ||
        !communicates(last->second_kind, next->first_kind) ||
        !bp_may_reach_one_instance(analysis->engine, next->first_object, last->second,
                                   next->first) ||
        bp_distinct_instances(analysis->engine, last->second, next->first) ||
        bp_serialised_writers(analysis, last->function, next->function, next->first_object) ||
        (next->second_flags & BP_ACCESS_UNPUBLISHED) ||
        bp_taken_elsewhere(analysis->engine, last->second, next->second_object) ||
        bp_taken_elsewhere(analysis->engine, next->first, last->first_object) ||
        ((last->second_flags | next->first_flags) &&
         !bp_accesses_meet(analysis->engine, last->second, last->first_object, next->first,
                           next->second_object)))
      continue;
    s->unbarriered += unbarriered;
    s->path[s->length++] = j;
    if (next->second_object == start->first_object) {
      if (s->length >= 3 && communicates(next->second_kind, start->first_kind) &&
          bp_may_reach_one_instance(analysis->engine, start->first_object, next->second,
                                    start->first) &&
          !bp_distinct_instances(analysis->engine, next->second, start->first) &&
          !bp_taken_elsewhere(analysis->engine, next->second, start->second_object) &&
          !bp_taken_elsewhere(analysis->engine, start->first, next->first_object) &&
          !bp_serialised_writers(analysis, next->function, start->function, start->first_object) &&
          (!(next->second_flags | start->first_flags) ||
           bp_accesses_meet(analysis->engine, next->second, next->first_object, start->first,
                            start->second_object)))
        report_cycle(s);
    } else if (s->length < BP_CHAIN_MAX) {
      extend(s);
    }
    s->length--;
    s->unbarriered -= unbarriered;
  }
}

void bp_check_transitive_weak_barriers(bp_analysis *analysis) {
  search s = {.analysis = analysis, .from = index_first_objects(analysis)};
  for (size_t i = 0; i < analysis->orderings.count; i++) {
    if (ordering_at(analysis, i)->strength == 0 || !ordering_at(analysis, i)->instances_go_together)
      continue;
    s.path[0] = i;
    s.length = 1;
    extend(&s);
  }
  free(s.from);
}
