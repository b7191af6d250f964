// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#pragma once
// Brook+'s brook/Device.h (BROOKPLUS.md §3.5): brook::Device, getDevices and useDevices, also by
// their unqualified names.

#include "brook/brookplus_device.hpp"

using brook::Device;
using brook::getDevices;
using brook::useDevices;
