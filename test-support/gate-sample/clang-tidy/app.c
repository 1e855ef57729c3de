#include <string.h>

int same(const char *a, const char *b) {
  if (strcmp(a, b))
    return 0;
  return 1;
}
