// A file with nothing shared, so a project has more than the pair.
int twice(int value) { return value * 2; }
