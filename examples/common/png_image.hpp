// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// Reading and writing 8-bit PNG images for the example programs, through libpng's simplified API.
// Pixels are row-major, top row first, `channels` bytes each (1 grey, 3 RGB).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace example {

struct Image {
    int width = 0;
    int height = 0;
    int channels = 1;
    std::vector<unsigned char> pixels;
};

/// Writes `image` to `path`; prints the reason and returns false when it cannot.
bool write_png(const std::string& path, const Image& image);

/// The PNG file at `path` converted to one grey byte per pixel; prints the reason and returns
/// nothing when it cannot be read.
std::optional<Image> read_png_gray(const std::string& path);

} // namespace example
