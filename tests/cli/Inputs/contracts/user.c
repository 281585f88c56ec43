/* The library's user: nothing of its own to pair. */
void api_publish(void *node);
void api_read_begin(void);

struct item {
  int value;
};

void add(struct item *item) {
  item->value = 1;
  api_publish(item);
}
