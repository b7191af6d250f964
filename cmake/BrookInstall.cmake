# Installation: brcc, headers, libbrook, the CMake package and brook.pc.
