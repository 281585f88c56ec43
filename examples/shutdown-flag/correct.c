/* A shutdown flag with a payload (scenario 12, message passing): the
 * controller writes why and how to stop, then raises `stop`; the worker polls
 * `stop` between units of work and, once it is up, reads the request.
 * uatomic_set() and uatomic_read() make the flag's accesses atomic, but they
 * order nothing: the controller needs cmm_smp_wmb() between the request and
 * the flag, the worker cmm_smp_rmb() between the flag and the request. The
 * request itself is written before the flag and read after it, so it does
 * not race and its fields stay plain.
 *
 * Build and run: cc -O2 -pthread correct.c && ./a.out */
#include <pthread.h>
#include <stdio.h>
#include <urcu/arch.h>
#include <urcu/system.h>
#include <urcu/uatomic.h>

struct shutdown_request {
  int exit_code;
  const char *reason;
};

/* What the worker hands back to main(). */
struct worker_report {
  unsigned long iterations;
  int exit_code;
  const char *reason;
};

static struct shutdown_request request;
static int stop;

static void *controller(void *unused) {
  (void)unused;
  request.exit_code = 3;
  request.reason = "configuration reloaded";
  cmm_smp_wmb(); /* the request is complete before the flag goes up */
  uatomic_set(&stop, 1);
  return NULL;
}

static void *worker(void *result) {
  struct worker_report *report = result;
  while (!uatomic_read(&stop))
    report->iterations++; /* a unit of work */
  cmm_smp_rmb(); /* see the request that the flag announces */
  report->exit_code = request.exit_code;
  report->reason = request.reason;
  return NULL;
}

int main(void) {
  pthread_t controller_thread, worker_thread;
  struct worker_report report = {0, 0, NULL};
  pthread_create(&worker_thread, NULL, worker, &report);
  pthread_create(&controller_thread, NULL, controller, NULL);
  pthread_join(controller_thread, NULL);
  pthread_join(worker_thread, NULL);
  printf("shutdown-flag: the worker stopped after %lu units of work: exit code %d (%s)\n",
         report.iterations, report.exit_code, report.reason ? report.reason : "no reason given");
  return report.exit_code != 3;
}
