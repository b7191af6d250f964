// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// Brook+'s header names (BROOKPLUS.md §1.1) and host vectors (§1.3): each header by its name,
// Brook+'s unqualified names, the vectors as named structs (`struct float4`), constructors with
// fewer scalars than components, pointer conversions, double2, short and ushort vectors, and
// their layout.
// inputs: scale.br
// kernels-header: scale.br
// expect: 1 9 2 0 16
// expect: sizes 12 16 6 8 16 4
// expect: partial 1 2 0 0 / 7 8 9 0 / 0 0 0 0
// expect: composite 1 2 3 4 sum 2 4 6 8
// expect: pointers 3 7 6
// expect: codes 0 7 9
// expect: scaled 2 4 0 18
#include "brook/ErrorCodes.h"
#include "brook/KernelInterface.h"
#include "brook/Stream.h"
#include "brook/VectorDataType.h"
#include "brookgenfiles/scale.h"
#include <brook/brook.h>

#include <stdio.h>

static float first(const struct float4* v) {
    return v->x;
}

int main() {
    float4 p(1, 2);
    double2 d(0.5, 4.0);
    short4 s;
    float* f = p;
    f[3] = 9.0f;
    printf("%g %g %g %d %zu\n", first(&p), p.w, d.x * d.y, s.w, sizeof(double2));
    printf("sizes %zu %zu %zu %zu %zu %zu\n", sizeof(float3), sizeof(float4), sizeof(ushort3),
           sizeof(short4), sizeof(int4), sizeof(uchar4));

    const float4 two(1, 2), three(7, 8, 9);
    const uint4 zero;
    printf("partial %g %g %g %g / %g %g %g %g / %u %u %u %u\n", two.x, two.y, two.z, two.w, three.x,
           three.y, three.z, three.w, zero.x, zero.y, zero.z, zero.w);

    const float4 whole(float2(1, 2), float2(3, 4));
    const float4 sum = whole + whole;
    printf("composite %g %g %g %g sum %g %g %g %g\n", whole.x, whole.y, whole.z, whole.w, sum.x,
           sum.y, sum.z, sum.w);

    int4 i(3, 5, 7, 9);
    const int* ip = i;
    ushort2 us(6, 1);
    unsigned short* up = us;
    printf("pointers %d %d %d\n", ip[0], ip[2], (int)up[0]);

    BRerror none = BR_NO_ERROR;
    printf("codes %d %d %d\n", (int)none, (int)BR_ERROR_INVALID_PARAMATER, (int)BR_ERROR_WARNING);

    unsigned int n[1] = {1};
    Stream<float4> a(1, n), r(1, n);
    a.read(&p);
    scale(a, 2.0f, r);
    float4 out;
    r.write(&out);
    printf("scaled %g %g %g %g\n", out.x, out.y, out.z, out.w);
    return 0;
}
