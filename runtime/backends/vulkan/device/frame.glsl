// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// The ABI between the compute shaders brcc writes for the vulkan backend (compiler/codegen/vulkan,
// which puts this file at the top of every kernel's shader and compiles it to SPIR-V) and the
// backend that dispatches them (runtime/backends/vulkan; its C++ mirror is shader_frame.hpp).
//
// Memory is reached through buffer device addresses (Vulkan 1.2's bufferDeviceAddress): no
// descriptor sets. The one push constant is the address of the call's Frame, which the backend
// writes into host-visible memory before the dispatch. All blocks use the scalar layout
// (VK_EXT_scalar_block_layout, core in 1.2), which is the C++ layout of the host's element types
// (no member of brook's vector types is over-aligned), so elements cross with a plain copy.
//
// Positions are ivec4s with the slowest dimension in .x and the fastest in .w; a region of rank
// r < 4 uses the last r components, with extent 1 and stride 0 in front (as the gl backend's).
// Element offsets are 64-bit, so streams beyond 2^31 elements are addressed exactly; each extent
// is below 2^31.
//
// Specialization constants: 0, the workgroup's size (x); 1, the entry the dispatch runs
// (brt_mode_*; one SPIR-V module per kernel holds all of its entries); 2, whether BRT_CHECK=1
// records integer division faults (division_record).
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_scalar_block_layout : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require

// One kernel parameter's argument, in declaration order.
struct BrtArg {
    // A stream, gather, output or reduce input: the address of its region's element at
    // position 0 (for a launch of a block of rows, where row 0 would lie). A constant: the
    // address of its value. A vout: the dense 1-D array of the call's pushes (write pass).
    uint64_t data;
    i64vec4 strides; // element strides, 0 in front
    ivec4 extents;   // 1 in front
    int rank;
    int reserved;
    // A vout: push_counts, one uint64_t per output element, which the count pass adds the
    // element's pushes to (zeroed by the backend); push_offsets, one uint64_t per output
    // element, its first slot in `data` (the exclusive prefix sums of the counts, which the
    // backend's own shader, vout_scan.comp, computes in place of the counts).
    uint64_t push_counts;
    uint64_t push_offsets;
};

layout(buffer_reference, scalar, buffer_reference_align = 8) readonly buffer BrtFrame {
    uint64_t element_count; // the product of output_extents
    uint64_t run_begin;     // the output elements to run, [run_begin, run_end), row-major
    uint64_t run_end;
    // 0, or while a write mask or write query tracks the call (brt_mode_general only): one
    // uint8_t per output element, on entry nonzero for an element to skip (it runs nothing),
    // on return 1 for each element written and 0 for one skipped or discarded.
    uint64_t element_flags;
    // Under BRT_CHECK=1 (specialization constant 2): a uint where the call records its first
    // integer division fault, element * 2 + fault (elements past 2^31 - 1 recorded as that),
    // by atomicMin from all ones; 32 bits, as the gl backend's, so that no 64-bit atomics are
    // needed.
    uint64_t division_record;
    // Reductions (brt_mode_reduce_*): see below.
    uint64_t reduce_chunk;
    uint64_t partials;
    uint64_t results;
    uint64_t reduce_blocks;
    ivec4 output_extents; // a stream kernel's domain; a reduction's box (see below)
    ivec4 reduce_targets; // a reduction's target extents (1 1 1 1 for a single value)
    int output_rank;
    int reserved;
    BrtArg args[];
};

layout(push_constant) uniform BrtPush {
    BrtFrame brt_frame;
};

layout(local_size_x_id = 0) in;
layout(constant_id = 1) const int brt_mode = 0;
layout(constant_id = 2) const bool brt_checks = false;

// The entries. Stream kernels: one invocation per output element of [run_begin, run_end) over a
// grid-stride loop on a 1-D grid.
//   dense:   every stream argument has the domain's shape and is contiguous: element i of each
//            is at data + i; no element flags.
//   general: any other call: inputs resized to the domain (DESIGN.md §2), views, row blocks,
//            element flags.
// Kernels with vout parameters have instead:
//   count:   adds each element's pushes to push_counts; writes no output.
//   write:   stores element i's pushes from slot push_offsets[i] of the vout's data, and the
//            ordinary outputs.
// Reductions, over boxes of the reduce input: box b (of reduce_targets' product, row-major)
// starts at position (b's position in reduce_targets) * output_extents and spans
// output_extents, element_count elements.
//   reduce_chunks:   a grid of (chunks, y) workgroups; workgroup (c, y) folds elements
//                    [c * reduce_chunk, min((c + 1) * reduce_chunk, element_count)) of boxes
//                    y, y + gridY, ... in row-major order and stores each to
//                    partials[box * chunks + c] (the input's storage type).
//   reduce_partials: a grid of (1, y) workgroups; folds partials
//                    [box * reduce_blocks, (box + 1) * reduce_blocks) of boxes y, y + gridY, ...
//                    in order into results[box] (dense, the input's storage type).
const int brt_mode_dense = 0;
const int brt_mode_general = 1;
const int brt_mode_count = 2;
const int brt_mode_write = 3;
const int brt_mode_reduce_chunks = 4;
const int brt_mode_reduce_partials = 5;
