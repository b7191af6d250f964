#pragma once
// BrookGPU's other public header: the same as brook/brook.hpp.

#include "brook/brook.hpp"
