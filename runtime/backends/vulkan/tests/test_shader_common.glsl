// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// What the unit test's hand-written shaders share, written as brcc's generated shaders follow
// device/frame.glsl: loads and stores through addresses, and the positions of elements.
layout(buffer_reference, scalar, buffer_reference_align = 4) buffer Floats {
    float value;
};
layout(buffer_reference, scalar, buffer_reference_align = 8) buffer Uint64s {
    uint64_t value;
};

float load_float(uint64_t address) {
    return Floats(address).value;
}

void store_float(uint64_t address, float value) {
    Floats(address).value = value;
}

// The element of `arg` that domain element `element` (row-major over output_extents) reads when
// the argument is resized to the domain (index * extent / domain extent per dimension), with
// the argument's strides: its address, for elements of `size` bytes.
uint64_t resized_address(BrtArg arg, uint64_t element, uint size) {
    int64_t offset = 0;
    for (int d = 3; d >= 0; --d) {
        const uint64_t domain = uint64_t(brt_frame.output_extents[d]);
        const uint64_t position = element % domain;
        element /= domain;
        offset += int64_t(position * uint64_t(arg.extents[d]) / domain) * arg.strides[d];
    }
    return arg.data + uint64_t(offset) * size;
}

uint64_t grid_stride() {
    return uint64_t(gl_NumWorkGroups.x) * uint64_t(gl_WorkGroupSize.x);
}
