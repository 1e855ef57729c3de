int twice(int n);

int main(void) {
  char *s = "4";
  int unused;
  return twice(s) + missing;
}
