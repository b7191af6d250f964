// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
# 0 "main.br"
# 0 "<built-in>"
# 0 "<command-line>"
# 1 "/usr/include/stdc-predef.h" 1 3 4
# 0 "<command-line>" 2
# 1 "main.br"
// `cpp` output of a Brook file (GCC line markers): the text of each file the main file
// included becomes one `#include` again, and its declarations (Pair) stay known to brcc.
// expect: {2.00, 1.00}{4.00, 2.00}{6.00, 3.00}
// expect: 2 4 6
# 1 "/usr/include/stdio.h" 1 3 4
extern int printf (const char *__restrict __format, ...);
# 5 "main.br" 2
# 1 "defs.h" 1

typedef struct {
    float x;
    float y;
} Pair;
# 6 "main.br" 2

kernel void twice(float a<>, out Pair r<>) {
    r.x = a * 2.0f;
    r.y = a;
}

int main() {
    float in[3] = {1, 2, 3};
    Pair out[3];
    float a<3>;
    Pair r<3>;
    streamRead(a, in);
    twice(a, r);
    streamPrint(r);
    streamWrite(r, out);
    printf("%g %g %g\n", out[0].x, out[1].x, out[2].x);
    return 0;
}
