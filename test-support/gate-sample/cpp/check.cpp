#include <cstdio>
#include <string>

int size(std::string s) { return static_cast<int>(s.size()); }

int first() {
  const int a[4] = {0, 1, 2, 3};
  return a[4];
}

void show(int n) { std::printf("%s\n", n); }

long addr(int *p) { return p; }

int scope(int n) {
  int i;
  if (n > 0) {
    i = n;
    return i;
  }
  return 0;
}
