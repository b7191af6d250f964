// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
// libpng's simplified API (png_image) does the format conversions: any PNG reads as 8-bit grey,
// and grey or RGB bytes write as a PNG without the setjmp error handling of the full API.
#include "png_image.hpp"

#include <png.h>

#include <cstdio>

namespace example {

bool write_png(const std::string& path, const Image& image) {
    png_image png{};
    png.version = PNG_IMAGE_VERSION;
    png.width = static_cast<png_uint_32>(image.width);
    png.height = static_cast<png_uint_32>(image.height);
    png.format = image.channels == 3 ? PNG_FORMAT_RGB : PNG_FORMAT_GRAY;
    if (png_image_write_to_file(&png, path.c_str(), 0, image.pixels.data(), 0, nullptr) == 0) {
        std::fprintf(stderr, "cannot write %s: %s\n", path.c_str(), png.message);
        return false;
    }
    return true;
}

std::optional<Image> read_png_gray(const std::string& path) {
    png_image png{};
    png.version = PNG_IMAGE_VERSION;
    if (png_image_begin_read_from_file(&png, path.c_str()) == 0) {
        std::fprintf(stderr, "cannot read %s: %s\n", path.c_str(), png.message);
        return std::nullopt;
    }
    png.format = PNG_FORMAT_GRAY;
    Image image;
    image.width = static_cast<int>(png.width);
    image.height = static_cast<int>(png.height);
    image.pixels.resize(PNG_IMAGE_SIZE(png));
    if (png_image_finish_read(&png, nullptr, image.pixels.data(), 0, nullptr) == 0) {
        std::fprintf(stderr, "cannot read %s: %s\n", path.c_str(), png.message);
        png_image_free(&png);
        return std::nullopt;
    }
    return image;
}

} // namespace example
