/* A build tool of the tree: not one of the nine directories, so not part of
 * the program; its missing rmb is never reported. */
#define READ_ONCE(x) (*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, v) (*(volatile __typeof__(x) *)&(x) = (v))
#define smp_wmb() __asm__ __volatile__("" ::: "memory")

int tool_data, tool_flag;

void tool_write(void) {
  WRITE_ONCE(tool_data, 1);
  smp_wmb();
  WRITE_ONCE(tool_flag, 1);
}

int tool_read(void) {
  return READ_ONCE(tool_flag) ? READ_ONCE(tool_data) : 0;
}
