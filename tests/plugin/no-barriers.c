// Code without any barrier, shared objects the plugin cannot name, and
// unusual statements: nothing to report, nothing to crash on.
//
// RUN: %barrierpair %s -Xclang -verify
// expected-no-diagnostics
#include <setjmp.h>
#include <stdarg.h>

struct node {
  struct node *next;
  int value;
};

struct node *head;
int counter;
static int table[16];

int sum(void) {
  int total = 0;
  for (struct node *n = head; n; n = n->next)
    total += n->value;
  return total + counter;
}

void bump(int *p) {
  (*p)++;
  counter += table[*p & 15];
  table[counter & 15] = *p;
}

int varargs(int count, ...) {
  va_list list;
  va_start(list, count);
  int first = va_arg(list, int);
  va_end(list);
  return first;
}

int jumps(jmp_buf env, int n) {
  if (n > 3)
    goto out;
  switch (n) {
  case 0:
    longjmp(env, 1);
  case 1:
    return ({ int local = counter; local * 2; });
  default:
    break;
  }
out:
  return __builtin_expect(n, 0);
}

void empty(void) {}
